/**
 * The public `client.chat` (the namespace) and `client.chat.completions` (the chat endpoint's
 * class with what lib builds on it, `runTools`).
 *
 * @module
 */
import { APIResource } from "../../core/resource.js";
import { ChatCompletionsEndpoint } from "../../resources/chat/completions.js";
import { ToolRun, type ToolRunOptions, type ToolRunParams } from "../tool-runner/tool-run.js";

/**
 * Chat generation (`POST /v1/chat/completions`, Bearer auth): `create`, `parse`, and the agent
 * loop `runTools`.
 */
export class Completions extends ChatCompletionsEndpoint {
  /**
   * Runs a tool-using agent: calls the model, runs every tool call it made (at once, unless
   * `parallel_tool_calls: false`), answers each with a `tool` message (results that are not
   * strings JSON-encoded; invalid arguments, an unknown tool or, by default, a tool's error as
   * `Error: ...` for the model to act on), and calls again until a reply makes no tool call.
   * Returns at once; more than `maxIterations` (default 10) model calls rejects with
   * `ToolRunLimitError`, an abort with `APIUserAbortError` (a running tool's `signal` aborts
   * too). Inside `captureTrajectory` the run is one trajectory, each reply kept as a choice.
   *
   * @example
   * ```ts
   * import { z } from "zod";
   * import { tool } from "inferloop";
   *
   * const run = client.chat.completions.runTools({
   *   model,
   *   messages: [{ role: "user", content: "What is 12 * 7?" }],
   *   tools: [tool({ name: "multiply", parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a * b })],
   * });
   * for await (const completion of run) console.log(completion.choices[0]?.finish_reason);
   * const { messages, usage, iterations } = await run.done();
   * ```
   */
  runTools(params: ToolRunParams, options?: ToolRunOptions): ToolRun {
    return new ToolRun(this, params, options);
  }
}

/**
 * Chat generation: `client.chat.completions`.
 */
export class Chat extends APIResource {
  /** Chat completions, plain and streamed, and the tool runner. */
  readonly completions: Completions = new Completions(this._http);
}
