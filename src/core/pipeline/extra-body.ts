import { RequestValidationError } from "../errors/errors.js";
import { toJSONValue } from "../json/json-value.js";

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
 * over its top level (a later source wins). A member named in `merges` whose value is an
 * object on both sides is merged member by member instead (`experimental_config`: a setting
 * newer than the SDK joins the validated ones rather than replacing them). Returns `body`
 * itself when there is nothing to merge or it is not a JSON object. An `extraBody` that is not
 * an object is refused.
 */
export function withExtraBody(
  body: unknown,
  clientDefault: unknown,
  perRequest: unknown,
  operation: string,
  merges: readonly string[] = [],
): unknown {
  if (clientDefault === undefined && perRequest === undefined) return body;
  if (![clientDefault, perRequest].every((e) => e === undefined || isPlainObject(e)))
    throw new RequestValidationError(
      [{ path: "extraBody", message: "must be an object of body fields" }],
      `${operation} request`,
    );
  if (!isPlainObject(body)) return body;
  // Unvalidated, but still plain JSON: a cycle, a BigInt or NaN is refused, never sent as null.
  const out: ExtraBody = { ...body };
  for (const source of [clientDefault, perRequest]) {
    if (source === undefined) continue;
    const extra = toJSONValue(source, "extraBody") as ExtraBody;
    for (const [key, value] of Object.entries(extra)) {
      const before = out[key];
      out[key] =
        merges.includes(key) && isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
    }
  }
  return out;
}
