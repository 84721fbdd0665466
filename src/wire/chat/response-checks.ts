import { expectArray, expectMemberObject, expectObject, isObject } from "../../core/decoding/response-checks.js";
import { assertChunkIndices, isIndex } from "./stream/chunk-indices.js";
import type { ChatCompletionChunk } from "./types.js";

// The checks below build the path of each member they look at, for the message. That is a few
// strings per chunk, on the hot path of every stream; so a chunk is first tested by the same
// rules without any path, and only one that fails is walked again to say where and why.
const isArrayOrNull = (v: unknown) => v == null || Array.isArray(v);
const isObjectOrNull = (v: unknown) => v == null || isObject(v);

// A stream chunk's choice and tool-call indices are checked in the same walk (`indices`): the
// accumulator files each delta under them.
function choiceIsReadable(choice: unknown, body: "message" | "delta", indices = false): boolean {
  if (!isObject(choice)) return false;
  if (indices && !isIndex(choice["index"])) return false;
  const m = choice[body];
  if (body === "delta" ? !isObjectOrNull(m) : !isObject(m)) return false;
  if (m != null) {
    const calls = (m as Record<string, unknown>)["tool_calls"];
    if (!isArrayOrNull(calls)) return false;
    if (calls != null)
      for (let t = 0; t < (calls as unknown[]).length; t++) {
        const call = (calls as unknown[])[t];
        if (!isObject(call) || (indices && !isIndex(call["index"]))) return false;
      }
  }
  const lp = choice["logprobs"];
  if (!isObjectOrNull(lp)) return false;
  return (
    lp == null ||
    (isArrayOrNull((lp as Record<string, unknown>)["content"]) &&
      isArrayOrNull((lp as Record<string, unknown>)["refusal"]))
  );
}

// What the SDK reads of a choice's message or delta: tool calls and logprobs, which the
// accumulator walks, and the choice objects themselves.
function checkChoice(choice: unknown, at: string, what: string, body: "message" | "delta"): void {
  const c = expectObject(choice, what, at);
  const m = expectMemberObject(c, body, what, `${at}.${body}`, body === "delta");
  if (m !== undefined) {
    const calls = expectArray(m, "tool_calls", what, `${at}.${body}.tool_calls`, true);
    if (calls !== undefined)
      for (let t = 0; t < calls.length; t++) expectObject(calls[t], what, `${at}.${body}.tool_calls.${t}`);
  }
  const lp = expectMemberObject(c, "logprobs", what, `${at}.logprobs`, true);
  if (lp !== undefined) {
    expectArray(lp, "content", what, `${at}.logprobs.content`, true);
    expectArray(lp, "refusal", what, `${at}.logprobs.refusal`, true);
  }
}

/**
 * Throws `ResponseParseError` naming the member when a chat completion cannot be read: the
 * body not an object, `choices` not an array, a choice or its `message` not an object,
 * `tool_calls` or `logprobs.content` of the wrong type.
 */
export function checkCompletion(value: unknown): unknown {
  if (isObject(value) && Array.isArray(value["choices"])) {
    const choices = value["choices"] as unknown[];
    let ok = true;
    for (let i = 0; i < choices.length && ok; i++) ok = choiceIsReadable(choices[i], "message");
    if (ok) return value;
  }
  const what = "chat completion";
  const body = expectObject(value, what);
  const choices = expectArray(body, "choices", what, "choices", false)!;
  for (let i = 0; i < choices.length; i++) checkChoice(choices[i], `choices.${i}`, what, "message");
  return value;
}

/**
 * Throws `ResponseParseError` naming the chunk and member when a stream chunk cannot be read
 * (a `null` chunk, `choices: [null]`, `tool_calls: [null]`, `logprobs.content: 5`, ...) or
 * when a choice or tool-call `index` is not a non-negative integer (see `assertChunkIndices`).
 */
export function checkChunk(value: unknown, n: number): ChatCompletionChunk {
  if (isObject(value)) {
    const choices = value["choices"];
    if (choices == null) return value as unknown as ChatCompletionChunk;
    if (Array.isArray(choices)) {
      let ok = true;
      for (let i = 0; i < choices.length && ok; i++) ok = choiceIsReadable(choices[i], "delta", true);
      if (ok) return value as unknown as ChatCompletionChunk;
    }
  }
  const what = `stream chunk ${n}`;
  const chunk = expectObject(value, what);
  const choices = expectArray(chunk, "choices", what, "choices", true);
  if (choices !== undefined)
    for (let i = 0; i < choices.length; i++) checkChoice(choices[i], `choices.${i}`, what, "delta");
  assertChunkIndices(chunk as unknown as ChatCompletionChunk, n);
  return chunk as unknown as ChatCompletionChunk;
}
