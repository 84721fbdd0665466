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
