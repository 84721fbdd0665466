import { config } from "zod/mini";
import type { $ZodRawIssue } from "zod/v4/core";

const SIZE_UNITS: Record<string, string> = { string: "characters", array: "items", set: "items", map: "entries" };

// Small stand-ins for zod's util helpers: importing those drags in all of zod's util module.
const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" && Number.isNaN(v) ? "NaN" : typeof v;
const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : String(v));
const join = (values: unknown[], sep: string): string => values.map(show).join(sep);

/** English issue messages in the words of zod's own `en` locale, for the issue kinds the
 * SDK's schemas can raise, at a fraction of the locale's size in a browser bundle. */
function englishMessage(issue: $ZodRawIssue): string {
  const i = issue as $ZodRawIssue & Record<string, unknown>;
  switch (issue.code) {
    case "invalid_type":
      return `Invalid input: expected ${i.expected}, received ${typeOf(issue.input)}`;
    case "invalid_value": {
      const values = i.values as unknown[];
      return values.length === 1
        ? `Invalid input: expected ${show(values[0])}`
        : `Invalid option: expected one of ${join(values, "|")}`;
    }
    case "too_big":
    case "too_small": {
      const big = issue.code === "too_big";
      const adj = i.exact ? "exactly " : `${big ? "<" : ">"}${i.inclusive ? "=" : ""}`;
      const origin = (i.origin as string | undefined) ?? "value";
      const unit = SIZE_UNITS[origin];
      const bound = String(big ? i.maximum : i.minimum);
      return `Too ${big ? "big" : "small"}: expected ${origin} to ${unit ? "have" : "be"} ${adj}${bound}${unit ? ` ${unit}` : ""}`;
    }
    case "invalid_format":
      return i.format === "regex" ? `Invalid string: must match pattern ${i.pattern}` : `Invalid ${i.format}`;
    case "unrecognized_keys": {
      const keys = i.keys as string[];
      return `Unrecognized key${keys.length > 1 ? "s" : ""}: ${join(keys, ", ")}`;
    }
    case "invalid_key":
      return `Invalid key in ${i.origin}`;
    case "invalid_element":
      return `Invalid value in ${i.origin}`;
    default:
      return "Invalid input";
  }
}

/**
 * Gives `zod/mini` English issue messages ("Invalid input: expected string, received number"
 * rather than a bare "Invalid input"), which classic `zod` installs by itself and mini does
 * not. Only when the application has not configured a locale of its own. Call it at the top of
 * every module that builds schemas. A plain call, not a bare side-effect import, so bundlers
 * honouring `"sideEffects": false` keep it.
 *
 * (Classic zod also installs a memoizer, which lets recursive schemas parse inputs that hold
 * reference cycles. The SDK does without it, to keep browser bundles small: request bodies are
 * JSON, which cannot hold a cycle, and `validateInput` turns the stack overflow a cyclic input
 * causes into a `RequestValidationError`.)
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 *
 * ensureZodDefaults();
 * const schema = z.strictObject({ name: z.string() });
 * schema.safeParse({ name: 1 }).error?.issues[0]?.message; // "Invalid input: expected string, received number"
 * ```
 */
export function ensureZodDefaults(): void {
  if (!config().localeError) config({ localeError: englishMessage });
}
