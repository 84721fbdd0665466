import { endpoint } from "../../core/pipeline/endpoint.js";
import { readJSON } from "../../core/pipeline/http-client.js";
import { activeChatCapture } from "./capture-slot.js";
import { modelNotFoundHint } from "./model-not-found.js";
import { parsedStreamOf } from "./parse-hook.js";
import { chatCompletionCreateParamsSchema, prepareChatRequest, requestIssues } from "./request-schema.js";
import { checkCompletion } from "./response-checks.js";
import { roleFindings } from "./role-findings.js";
import { ChatCompletionStream } from "./stream/stream.js";
import { type ChatCompletion, normalizeCompletion } from "./types.js";

type ChatResult = ChatCompletion | ChatCompletionStream;

// Streamed or not, one endpoint: a body with `stream: true` is read as SSE, any other as JSON.
export const chatCompletionsCreate = endpoint({
  operation: "chat.completions.create",
  method: "POST",
  path: "/v1/chat/completions",
  service: "inference",
  retry: "safe",
  body: {
    schema: chatCompletionCreateParamsSchema,
    issues: requestIssues,
    prepare: prepareChatRequest,
    // A role that is a near miss of a standard one is sent as written (vLLM takes custom roles).
    review: roleFindings,
  },
  read: async (res): Promise<ChatResult> =>
    normalizeCompletion(checkCompletion(await readJSON<unknown>(res)) as ChatCompletion),
  hooks: {
    genAiOperation: "chat",
    // A vLLM started without tool calling refuses `tools` without `tool_choice` (it picks "auto")
    // and `tool_choice: "auto"`: the request is sent as written, and the answer says what to do.
    errorHints: [
      {
        status: 400,
        match: /"auto" tool choice requires --enable-auto-tool-choice/,
        hint: ' (this server was started without tool calling: pass `tool_choice: "none"` to send the tools without letting the model call them, a named tool or "required" to force a call, or start vLLM with --enable-auto-tool-choice and --tool-call-parser <parser>)',
      },
      // A model the server does not know: the closest served names, or a trained model's newest step.
      modelNotFoundHint,
    ],
    streamed: {
      when: (body) => body.stream === true,
      // The checked body has lost a parsing format's hidden opener: it is read from the caller's.
      read: (res, { params, redactor, signal }) => {
        const open = parsedStreamOf(params);
        return open ? open(res, redactor, signal) : ChatCompletionStream.fromResponse(res, redactor, signal);
      },
    },
    // Inside captureTrajectory the capture sends and records the call (see capture-slot.ts);
    // outside, this check is all it costs.
    around: (body, send) => activeChatCapture()?.chat(body, send),
  },
});
