/**
 * How vLLM counts the constraints of `structured_outputs` (internal: shared by the option
 * schema and the request's cross-field rules, not part of the public surface).
 *
 * @module
 */

/**
 * The members of `structured_outputs` that are constraints; vLLM needs exactly one of them
 * to be non-null (`StructuredOutputsParams.__post_init__` in `vllm/sampling_params.py`).
 */
export const STRUCTURED_OUTPUTS_CONSTRAINTS = [
  "json",
  "regex",
  "choice",
  "grammar",
  "json_object",
  "structural_tag",
] as const;

/**
 * The constraints of a `structured_outputs` value that vLLM counts: every one that is not
 * null, so `json_object: false` counts too.
 *
 * @example
 * ```ts
 * structuredOutputsConstraints({ regex: "\\d+", json_object: false }); // ["regex", "json_object"]
 * ```
 */
export function structuredOutputsConstraints(so: object): string[] {
  return STRUCTURED_OUTPUTS_CONSTRAINTS.filter((k) => (so as Record<string, unknown>)[k] != null);
}

// What Python's str.strip() removes (str.isspace): JavaScript's trim() also removes U+FEFF,
// which Python keeps, and keeps U+001C-U+001F and U+0085, which Python removes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+001C-U+001F are whitespace to Python
const PYTHON_BLANK = /^[\t\n\v\f\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/**
 * Whether vLLM reads `text` as empty: it strips a `grammar` or `json` text before checking it
 * (`SamplingParams._validate_structured_outputs`), so whitespace alone is refused like "".
 *
 * @example
 * ```ts
 * isBlankToVllm(" \n"); // true
 * ```
 */
export function isBlankToVllm(text: string): boolean {
  return PYTHON_BLANK.test(text);
}
