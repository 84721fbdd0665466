/**
 * The agent loop of `client.chat.completions.runTools`: call the model, run the tools it
 * asked for, answer each call with a `tool` message, call again, until a reply makes no call.
 * Each model call goes through `create`, so inside `captureTrajectory` the whole run is
 * recorded as one conversation, every assistant choice kept with its logprobs and token ids.
 *
 * @module
 */

import { optionNameIssues, REQUEST_OPTION_NAMES } from "../../core/checks/option-checks.js";
import { InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import { linkedAbort, signalAbortError } from "../../core/pipeline/abort.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { ChatCreate } from "../../wire/chat/chat-create.js";
import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from "../../wire/chat/message-schemas.js";
import type { ChatCompletionCreateParamsBase } from "../../wire/chat/request-schema.js";
import type { ChatCompletion, ChatCompletionMessageToolCall, CompletionUsage } from "../../wire/chat/types.js";
import { assistantTurn } from "../assistant-turn.js";
import { isRunnableTool, type RunnableTool } from "./tool.js";

/**
 * What `runTools` sends: any chat request whose `tools` are {@link RunnableTool}s made by
 * `tool()`. `stream: true` streams each model call (the run still yields each reply as it ends).
 */
export type ToolRunParams = Omit<ChatCompletionCreateParamsBase, "tools"> & {
  // biome-ignore lint/suspicious/noExplicitAny: each tool has its own argument type.
  tools: RunnableTool<any>[];
};

/**
 * Options of `runTools`: every request option (`signal`, `timeout`, `headers`...) for each model
 * call, and the loop's own.
 */
export interface ToolRunOptions extends RequestOptions {
  /** Model calls allowed; one more needed rejects with {@link ToolRunLimitError}. Default 10. */
  maxIterations?: number;
  /**
   * A tool that throws: `"message"` (default) answers the model with `Error: <message>`;
   * `"throw"` rejects the run with the tool's error (other running tools' signals abort).
   */
  onToolError?: "message" | "throw";
}

/**
 * What `run.done()` resolves to.
 */
export interface ToolRunResult {
  /** The input messages, each assistant message, each tool message and the final reply. */
  messages: ChatCompletionMessageParam[];
  /** Every model reply, in order. */
  completions: ChatCompletion[];
  /** The replies' usage summed (zeros for replies without usage, e.g. streamed without `include_usage`). */
  usage: CompletionUsage;
  /** Model calls made. */
  iterations: number;
}

/**
 * The run needed more model calls than `maxIterations` allows. `messages` and `completions`
 * hold the conversation so far (the last tool calls answered), to inspect or continue.
 */
export class ToolRunLimitError extends InferloopError {
  override name = "ToolRunLimitError";
  readonly maxIterations: number;
  readonly messages: ChatCompletionMessageParam[];
  readonly completions: ChatCompletion[];
  constructor(maxIterations: number, messages: ChatCompletionMessageParam[], completions: ChatCompletion[]) {
    super(
      `runTools: the model still called tools after ${maxIterations} model calls (maxIterations); raise maxIterations or make the task reachable in fewer turns`,
    );
    this.maxIterations = maxIterations;
    this.messages = messages;
    this.completions = completions;
  }
}

const zeroUsage = (): CompletionUsage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

function addUsage(sum: CompletionUsage, usage: CompletionUsage | null | undefined): void {
  if (usage == null) return;
  sum.prompt_tokens += usage.prompt_tokens ?? 0;
  sum.completion_tokens += usage.completion_tokens ?? 0;
  sum.total_tokens += usage.total_tokens ?? 0;
}

/** A tool result as message content: strings as they are, anything else as JSON. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  if (result === undefined) return "";
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const TOOL_RUN_OPTION_NAMES = ["maxIterations", "onToolError", ...REQUEST_OPTION_NAMES];

function checkParams(params: ToolRunParams, maxIterations: number, options: ToolRunOptions): void {
  const issues = optionNameIssues(options, TOOL_RUN_OPTION_NAMES, "near misses");
  if (!Array.isArray(params.tools) || params.tools.length === 0)
    issues.push({
      path: "tools",
      message: "runTools needs at least one tool made with tool({ name, parameters, run })",
    });
  else
    params.tools.forEach((t, i) => {
      if (!isRunnableTool(t))
        issues.push({
          path: `tools.${i}`,
          message:
            "not a runnable tool: make it with tool({ name, parameters, run }) (a plain tools entry has no code to run)",
        });
    });
  if (params.n != null && params.n !== 1)
    issues.push({
      path: "n",
      message:
        "runTools follows one conversation, so n must be 1; for several rollouts start several runs (e.g. one per rollout in gatherTrajectoryGroups)",
    });
  if (!Number.isInteger(maxIterations) || maxIterations < 1)
    issues.push({ path: "maxIterations", message: `must be a positive integer, got ${String(maxIterations)}` });
  const onToolError = options.onToolError;
  if (onToolError !== undefined && onToolError !== "message" && onToolError !== "throw")
    issues.push({ path: "onToolError", message: `must be "message" or "throw", got ${JSON.stringify(onToolError)}` });
  if (issues.length > 0) throw new RequestValidationError(issues, "runTools request");
}

/**
 * A running `runTools` loop, returned at once (no `await`): iterate it for each model reply
 * as it ends, and `done()` for the whole conversation. Either may come first, or both.
 *
 * @example
 * ```ts
 * const clock = tool({ name: "clock", parameters: { type: "object", properties: {} }, run: () => new Date().toISOString() });
 * const run = client.chat.completions.runTools({ model, messages, tools: [clock] });
 * for await (const completion of run) console.log(completion.choices[0]?.finish_reason);
 * const { messages: conversation, usage } = await run.done();
 * ```
 */
export class ToolRun implements AsyncIterable<ChatCompletion> {
  readonly #completions: ChatCompletion[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #done: Promise<ToolRunResult>;
  #ended = false;
  #error: unknown;
  #failed = false;

  /** @internal Started by `runTools`, in the caller's async context (so a capture records it). */
  constructor(completions: ChatCreate, params: ToolRunParams, options: ToolRunOptions = {}) {
    this.#done = this.#run(completions, params, options).then(
      (result) => {
        this.#finish();
        return result;
      },
      (err: unknown) => {
        this.#failed = true;
        this.#error = err;
        this.#finish();
        throw err;
      },
    );
    // Read by done() or by the iterator; a run nobody reads is no unhandled rejection.
    this.#done.catch(() => {});
  }

  /**
   * Resolves when the run ends, with every message, every reply, the summed usage and the
   * number of model calls; rejects with the run's error.
   *
   * @example
   * ```ts
   * const clock = tool({ name: "clock", parameters: { type: "object", properties: {} }, run: () => new Date().toISOString() });
   * const run = client.chat.completions.runTools({ model, messages, tools: [clock] });
   * const { messages: conversation, completions, usage, iterations } = await run.done();
   * ```
   */
  done(): Promise<ToolRunResult> {
    return this.#done;
  }

  /**
   * Each model reply as it ends (the last one makes no tool call); throws the run's error.
   *
   * @example
   * ```ts
   * const clock = tool({ name: "clock", parameters: { type: "object", properties: {} }, run: () => new Date().toISOString() });
   * for await (const completion of client.chat.completions.runTools({ model, messages, tools: [clock] }))
   *   console.log(completion.usage?.total_tokens);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<ChatCompletion> {
    let next = 0;
    for (;;) {
      if (next < this.#completions.length) {
        yield this.#completions[next++]!;
        continue;
      }
      if (this.#ended) {
        if (this.#failed) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => this.#waiters.add(resolve));
    }
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  #finish(): void {
    this.#ended = true;
    this.#wake();
  }

  async #run(completions: ChatCreate, params: ToolRunParams, options: ToolRunOptions): Promise<ToolRunResult> {
    const { maxIterations = 10, onToolError = "message", ...requestOptions } = options;
    checkParams(params, maxIterations, options);
    const { tools, messages: input, ...rest } = params;
    const byName = new Map(tools.map((t) => [t.function.name, t]));
    const messages: ChatCompletionMessageParam[] = [...input];
    const usage = zeroUsage();
    const userSignal = options.signal;
    let iterations = 0;

    for (;;) {
      if (userSignal?.aborted) throw signalAbortError(userSignal);
      if (iterations >= maxIterations) throw new ToolRunLimitError(maxIterations, messages, this.#completions.slice());
      iterations++;
      const request = { ...rest, tools, messages: messages.slice() } as ChatCompletionCreateParamsBase;
      const completion =
        request.stream === true
          ? await (
              await completions.create(request as ChatCompletionCreateParamsBase & { stream: true }, requestOptions)
            ).finalCompletion()
          : await completions.create(request as ChatCompletionCreateParamsBase & { stream?: false }, requestOptions);
      this.#completions.push(completion);
      addUsage(usage, completion.usage);
      this.#wake();
      const choice = completion.choices[0];
      if (choice === undefined) throw new InferloopError("runTools: the reply has no choice to continue from");
      messages.push(assistantTurn(choice.message));
      const calls = choice.message.tool_calls ?? [];
      if (calls.length === 0) return { messages, completions: this.#completions.slice(), usage, iterations };
      const answers = await this.#answer(calls, byName, messages, params.parallel_tool_calls !== false, {
        onToolError,
        userSignal,
      });
      messages.push(...answers);
    }
  }

  /** One `tool` message per call, in the calls' order; the tools run at once unless told not to. */
  async #answer(
    calls: readonly ChatCompletionMessageToolCall[],
    byName: ReadonlyMap<string, RunnableTool>,
    messages: readonly ChatCompletionMessageParam[],
    parallel: boolean,
    { onToolError, userSignal }: { onToolError: "message" | "throw"; userSignal: AbortSignal | undefined },
  ): Promise<ChatCompletionToolMessageParam[]> {
    const { controller: inner, unlink } = linkedAbort(userSignal);
    const seen = messages.slice();
    // A tool that ignores its signal must not hold the run: an abort ends the wait at once.
    const aborted = new Promise<never>((_, reject) => {
      inner.signal.addEventListener("abort", () => reject(inner.signal.reason), { once: true });
    });
    aborted.catch(() => {});
    const answer = async (call: ChatCompletionMessageToolCall): Promise<ChatCompletionToolMessageParam> => {
      const content = await this.#callTool(call, byName, seen, inner.signal, onToolError, inner);
      return { role: "tool", tool_call_id: call.id, content };
    };
    try {
      const work = parallel
        ? Promise.all(calls.map(answer))
        : (async () => {
            const out: ChatCompletionToolMessageParam[] = [];
            for (const call of calls) out.push(await answer(call));
            return out;
          })();
      return await Promise.race([work, aborted]);
    } catch (err) {
      if (userSignal?.aborted) throw signalAbortError(userSignal);
      throw err instanceof ToolFailure ? err.cause : err;
    } finally {
      unlink();
    }
  }

  async #callTool(
    call: ChatCompletionMessageToolCall,
    byName: ReadonlyMap<string, RunnableTool>,
    messages: readonly ChatCompletionMessageParam[],
    signal: AbortSignal,
    onToolError: "message" | "throw",
    inner: AbortController,
  ): Promise<string> {
    const name = call.function?.name;
    const tool = typeof name === "string" ? byName.get(name) : undefined;
    if (tool === undefined)
      return `Error: there is no tool named ${JSON.stringify(name)}; the tools are ${[...byName.keys()].join(", ")}`;
    let parsed: unknown;
    const text = call.function.arguments;
    try {
      parsed = text === undefined || text === null || text.trim() === "" ? {} : JSON.parse(text);
    } catch (err) {
      return `Error: the arguments of ${name} are not valid JSON (${errorText(err)}); call it again with a JSON object that matches its parameters`;
    }
    const checked = await tool.validate(parsed);
    if (checked.issues !== undefined) {
      const list = checked.issues
        .map((issue) => {
          const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".");
          return path === "" ? issue.message : `${path}: ${issue.message}`;
        })
        .join("; ");
      return `Error: invalid arguments for ${name}: ${list}`;
    }
    try {
      return resultText(await tool.run(checked.value, { signal, toolCall: call, messages }));
    } catch (err) {
      if (signal.aborted) throw err;
      if (onToolError === "throw") {
        inner.abort(err);
        throw new ToolFailure(err);
      }
      return `Error: ${errorText(err)}`;
    }
  }
}

/** A tool's own error on its way out of the run (`onToolError: "throw"`), told apart from an abort. */
class ToolFailure {
  constructor(readonly cause: unknown) {}
}
