/**
 * Builders for response plans and the three error envelopes the real servers use: vLLM's
 * `{error:{...}}`, FastAPI's `{detail:[...]}` and the trace server's `{reason}`.
 */
import type { BodyPart, ResponsePlan } from "./types.js";
import type { ValidationIssue } from "./validate.js";

/**
 * Wraps a fixed body (or a lazy sequence of parts) as the async iterable adapters consume.
 */
export async function* toBody(
  source: BodyPart | Iterable<BodyPart> | AsyncIterable<BodyPart>,
): AsyncGenerator<BodyPart> {
  if (typeof source === "string" || source instanceof Uint8Array) {
    if (source.length > 0) yield source;
    return;
  }
  yield* source;
}

/**
 * A JSON response.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ResponsePlan {
  return {
    kind: "respond",
    status,
    headers: { "content-type": "application/json", ...headers },
    body: toBody(JSON.stringify(body)),
  };
}

/**
 * vLLM's error envelope: `{"error":{"message","type","param","code"}}` with `code` equal to the
 * HTTP status.
 */
export function openAiError(status: number, type: string, message: string, param: string | null = null): ResponsePlan {
  return jsonResponse(status, { error: { message, type, param, code: status } });
}

/**
 * FastAPI's validation envelope (422).
 */
export function detailError(issues: ValidationIssue[]): ResponsePlan {
  return jsonResponse(422, { detail: issues });
}

/**
 * The trace server's error envelope, `{"reason": "..."}`.
 */
export function reasonError(status: number, reason: string): ResponsePlan {
  return jsonResponse(status, { reason });
}

/**
 * Parses a JSON body for routes that need one, producing FastAPI's 422 `json_invalid` when it
 * is not JSON.
 */
export function requireJsonBody(
  raw: string,
  json: unknown,
): { ok: true; value: unknown } | { ok: false; error: ResponsePlan } {
  if (json !== undefined) return { ok: true, value: json };
  const msg = raw.trim() === "" ? "Field required" : "JSON decode error";
  const type = raw.trim() === "" ? "missing" : "json_invalid";
  return { ok: false, error: detailError([{ loc: raw.trim() === "" ? ["body"] : ["body", 0], msg, type }]) };
}
