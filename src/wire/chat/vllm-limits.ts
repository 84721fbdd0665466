/**
 * The rest of what every vLLM refuses in a chat request that the field schemas cannot see
 * alone: integers the JSON text cannot carry as integers, the server's list and count limits,
 * token ids, structured-output texts, and the message forms no member of vLLM's message union
 * takes. Called from the request schema's cross-field rules (`request-schema.ts`).
 *
 * Sources: `vllm/entrypoints/generate/base/protocol.py` (StopParam,
 * structured_outputs_from_response_format, validate_structural_tag_payload),
 * `vllm/sampling_params.py` (_verify_num_sequences, _validate_stop_token_ids),
 * `vllm/entrypoints/chat_utils.py` (ChatCompletionMessageParam), `vllm/envs.py`.
 *
 * @module
 */
import type * as z from "zod/mini";

/** vLLM's default `VLLM_MAX_STOP_STRINGS`: `stop` holds at most this many strings. */
export const VLLM_MAX_STOP_STRINGS = 4;
/** vLLM's default `VLLM_MAX_N_SEQUENCES`: the largest `n`. */
export const VLLM_MAX_N_SEQUENCES = 16384;

// JSON.stringify writes every number from 1e21 up in exponent form ("1e+21"); vLLM reads that
// as a float, which its integer fields refuse ("exceeded maximum size").
const EXPONENT_FORM = 1e21;

// The request's integer fields: top-level ones, and lists of integers.
const INT_FIELDS = [
  "max_tokens",
  "max_completion_tokens",
  "n",
  "top_k",
  "min_tokens",
  "top_logprobs",
  "prompt_logprobs",
  "thinking_token_budget",
  "stream_interval",
  "routed_experts_prompt_start",
] as const;
const INT_LIST_FIELDS = ["stop_token_ids", "allowed_token_ids", "logprob_token_ids"] as const;
const REPETITION_SIZES = ["max_pattern_size", "min_pattern_size", "min_count"] as const;

type Path = (string | number)[];
type Issue = (path: Path, message: string) => void;
type Body = Record<string, unknown>;

const isRecord = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);

const EXPONENT_MESSAGE =
  "is 10^21 or more, which JSON writes in exponent form (1e+21) and vLLM cannot read as an integer: use a smaller value";

// Every request passes through these rules: they read fields and allocate nothing (no path,
// no closure) unless a rule is broken.
const tooLarge = (v: unknown): boolean =>
  typeof v === "number" && (v >= EXPONENT_FORM || v <= -EXPONENT_FORM) && Number.isInteger(v);

const INT_FIELD_SET: ReadonlySet<string> = new Set(INT_FIELDS);
const INT_LIST_FIELD_SET: ReadonlySet<string> = new Set(INT_LIST_FIELDS);

function integerRules(p: Body, issue: Issue): void {
  // The keys the request has (a few), not each integer field it could have: a read of an
  // absent key by a computed name is a slow lookup, and most of these fields are absent.
  for (const f in p) {
    if (INT_FIELD_SET.has(f)) {
      if (tooLarge(p[f])) issue([f], EXPONENT_MESSAGE);
    } else if (INT_LIST_FIELD_SET.has(f)) {
      const list = p[f];
      if (Array.isArray(list))
        for (let i = 0; i < list.length; i++) if (tooLarge(list[i])) issue([f, i], EXPONENT_MESSAGE);
    }
  }
  const rd = p["repetition_detection"];
  if (isRecord(rd))
    for (const f of REPETITION_SIZES) if (tooLarge(rd[f])) issue(["repetition_detection", f], EXPONENT_MESSAGE);
  // SamplingParams._validate_stop_token_ids: ids are column indices, so a negative one is out of vocab.
  const stopIds = p["stop_token_ids"];
  if (Array.isArray(stopIds))
    for (let i = 0; i < stopIds.length; i++) {
      const v = stopIds[i];
      if (typeof v === "number" && v < 0)
        issue(["stop_token_ids", i], "is negative: token ids start at 0 (vLLM refuses it as out of vocabulary)");
    }
  const n = p["n"];
  if (typeof n === "number" && n > VLLM_MAX_N_SEQUENCES && n < EXPONENT_FORM)
    issue(
      ["n"],
      `must be at most ${VLLM_MAX_N_SEQUENCES} (vLLM's VLLM_MAX_N_SEQUENCES): ask for fewer replies, or send several requests`,
    );
  const stop = p["stop"];
  if (Array.isArray(stop) && stop.length > VLLM_MAX_STOP_STRINGS)
    issue(
      ["stop"],
      `holds ${stop.length} strings; vLLM takes at most ${VLLM_MAX_STOP_STRINGS} (VLLM_MAX_STOP_STRINGS): keep the ${VLLM_MAX_STOP_STRINGS} that matter`,
    );
}

function structuredRules(p: Body, issue: Issue): void {
  const so = p["structured_outputs"];
  if (!isRecord(so)) return;
  const format = p["response_format"];
  const formatType = isRecord(format) ? format["type"] : undefined;
  // structured_outputs_from_response_format sets json_object: true over whatever was written,
  // so `false` is harmless beside a json_object response_format; alone it constrains nothing.
  if (so["json_object"] === false && formatType !== "json_object")
    issue(["structured_outputs", "json_object"], "false constrains nothing: set it to true or leave it out");
  // A json_schema format without `schema` replaces structured_outputs.json with nothing.
  const schema = isRecord(format) && isRecord(format["json_schema"]) ? format["json_schema"]["schema"] : undefined;
  if (formatType === "json_schema" && schema == null && so["json"] != null)
    issue(
      ["response_format", "json_schema", "schema"],
      "is missing, and vLLM replaces structured_outputs.json with it (leaving no constraint): put the schema here, or drop response_format",
    );
  const tag = so["structural_tag"];
  if (typeof tag === "string" && tag !== "" && !isJSON(tag))
    issue(
      ["structured_outputs", "structural_tag"],
      "is not JSON: vLLM reads the structural tag specification as JSON text (JSON.stringify the object)",
    );
}

function isJSON(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// OpenAI's assistant message takes content null but not tool_calls null; vLLM's free-form
// message takes tool_calls null but not content null: together, no message form takes them.
function messageRules(p: Body, issue: Issue): void {
  const messages = p["messages"];
  if (!Array.isArray(messages)) return;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isRecord(m) && m["role"] === "assistant" && m["content"] === null && m["tool_calls"] === null)
      issue(
        ["messages", i, "tool_calls"],
        "is null while content is null, a form vLLM refuses: leave tool_calls out (or give content)",
      );
  }
}

/**
 * Adds an issue for each rule of vLLM's that `p` breaks (see the module's comment).
 */
export function vllmLimitRules(p: object, ctx: z.core.$RefinementCtx): void {
  const issue: Issue = (path, message) => ctx.addIssue({ code: "custom", path, message });
  integerRules(p as Body, issue);
  structuredRules(p as Body, issue);
  messageRules(p as Body, issue);
}
