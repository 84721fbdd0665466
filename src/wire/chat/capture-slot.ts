// The chat endpoint's side of `captureTrajectory` (src/lib/capture): a chat call made inside a
// capture is handed to it, and the capture sends the call as its own and records it. The
// endpoint knows only the interface below; the capture plugs in how the current one is found
// when it first runs. So the endpoint imports none of the capture's code (an app that never
// captures bundles none of it), and outside a capture a call pays one read and at most one call.
import type { WithResponse } from "../../core/pipeline/api-promise.js";
import type { ChatCompletionCreateParamsBase } from "./request-schema.js";
import type { ChatCompletionStream } from "./stream/stream.js";
import type { ChatCompletion } from "./types.js";

/** @internal What a chat call returns, as a capture sees it. */
export type ChatResult = WithResponse<ChatCompletion | ChatCompletionStream>;

/** @internal What a running capture offers the chat endpoint. */
export interface ChatCapture {
  /** Sends the call (its validated body, through `send`) as the capture's own, and records it. */
  readonly chat: (
    body: ChatCompletionCreateParamsBase,
    send: (body: ChatCompletionCreateParamsBase) => Promise<ChatResult>,
  ) => Promise<ChatResult>;
}

let lookup: (() => ChatCapture | undefined) | undefined;

/** @internal Plugged by the capture when one first runs: how the current capture is found. */
export function plugChatCapture(find: () => ChatCapture | undefined): void {
  lookup = find;
}

/** @internal The capture the current async context runs in, if any. */
export function activeChatCapture(): ChatCapture | undefined {
  return lookup?.();
}
