/**
 * Whether a string is well-formed UTF-16 (no unpaired surrogate), so that it can become the
 * UTF-8 text a server reads. Servers refuse text that cannot (vLLM's pydantic models do).
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `String.prototype.isWellFormed` where the runtime has it, a regular expression elsewhere.
 */
export function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" ? native.call(s) : !LONE_SURROGATE.test(s);
}
