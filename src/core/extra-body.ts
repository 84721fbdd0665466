import { RequestValidationError } from "./errors.js";

/**
 * Fields merged into the top level of a JSON request body after validation, unvalidated,
 * overriding what is there: the way to send what the SDK does not know yet (a newer vLLM
 * field such as `thinking_token_budget`) or to override what it sends.
 *
 * @example
 * ```ts
 * const extra: ExtraBody = { thinking_token_budget: 256, session_id: "s-1" };
 * ```
 */
export type ExtraBody = Record<string, unknown>;

function isPlainObject(value: unknown): value is ExtraBody {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The body to send: `body` with the client's default `extraBody`, then the request's, merged
 * over its top level (a later source wins). Returns `body` itself when there is nothing to
 * merge or it is not a JSON object. An `extraBody` that is not a plain object is refused.
 *
 * @example
 * ```ts
 * withExtraBody({ messages }, { seed: 1 }, { seed: 2, session_id: "s" }); // { messages, seed: 2, session_id: "s" }
 * ```
 */
export function withExtraBody(body: unknown, clientDefault: unknown, perRequest: unknown): unknown {
  for (const [extra, where] of [
    [clientDefault, "the client's extraBody"],
    [perRequest, "extraBody"],
  ] as const) {
    if (extra !== undefined && !isPlainObject(extra))
      throw new RequestValidationError(
        [{ path: "extraBody", message: `${where} must be a plain object of body fields` }],
        "request options",
      );
  }
  if ((clientDefault === undefined && perRequest === undefined) || !isPlainObject(body)) return body;
  return { ...body, ...(clientDefault as ExtraBody | undefined), ...(perRequest as ExtraBody | undefined) };
}
