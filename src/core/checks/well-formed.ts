/**
 * Whether a string is well-formed UTF-16 (no unpaired surrogate), so that it can become the
 * UTF-8 text a server reads. Servers refuse text that cannot (vLLM's pydantic models do).
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type WithWellFormed = string & { isWellFormed(): boolean };

/**
 * `String.prototype.isWellFormed` where the runtime has it, a regular expression elsewhere
 * (chosen once: it runs on every string of every chat request).
 */
export const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as Partial<WithWellFormed>).isWellFormed === "function"
    ? (s) => (s as WithWellFormed).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);
