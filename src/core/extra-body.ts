import { RequestValidationError } from "./errors.js";
import { toJSONValue } from "./json-value.js";

/**
 * Fields merged into the top level of a JSON request body after validation, unvalidated,
 * overriding what is there: the way to send what the SDK does not know yet (a vLLM field
 * newer than the SDK) or to override what it sends.
 */
export type ExtraBody = Record<string, unknown>;

const isPlainObject = (value: unknown): value is ExtraBody =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The body to send: `body` with the client's default `extraBody`, then the request's, merged
 * over its top level (a later source wins). Returns `body` itself when there is nothing to
 * merge or it is not a JSON object. An `extraBody` that is not an object is refused.
 */
export function withExtraBody(body: unknown, clientDefault: unknown, perRequest: unknown): unknown {
  if (clientDefault === undefined && perRequest === undefined) return body;
  if (![clientDefault, perRequest].every((e) => e === undefined || isPlainObject(e)))
    throw new RequestValidationError([{ path: "extraBody", message: "must be an object of body fields" }], "options");
  if (!isPlainObject(body)) return body;
  // Unvalidated, but still plain JSON: a cycle, a BigInt or NaN is refused, never sent as null.
  const extra = { ...(clientDefault as object), ...(perRequest as object) };
  return { ...body, ...toJSONValue(extra, "extraBody") };
}
