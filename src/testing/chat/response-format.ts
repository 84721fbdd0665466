/**
 * The fake model under a `response_format`, as vLLM's guided decoding holds a reply to it
 * (vllm-project/vllm `vllm/entrypoints/openai/protocol.py`: `json_schema` becomes the
 * `structured_outputs.json` constraint, `json_object` the `json_object` one): a `json_schema`
 * reply is JSON valid against the schema, drawn by the generator the fake's tool arguments use
 * (`tool-arguments.ts`: the values the user message mentions first, sampled with a `seed`); a
 * `json_object` reply is a JSON object. `text` (or no format) leaves the reply free.
 *
 * @module
 */

import { hash32, isRecord, seededRandom } from "../util.js";
import type { ChatParams } from "./checks.js";
import { schemaValue } from "./tool-arguments.js";

/**
 * The reply's JSON text under the request's `response_format`, or undefined when the format
 * leaves the reply free. `key` seeds a sampled draw; `userText` is the message answered;
 * `freeText` makes the words of an unconstrained reply (a `json_object` holds them).
 *
 * @example
 * ```ts
 * formattedReply(
 *   {
 *     model: "Qwen/Qwen3-8B",
 *     messages: [{ role: "user", content: "Weather in Paris" }],
 *     response_format: { type: "json_schema", json_schema: { name: "w", schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } },
 *   },
 *   "k",
 *   "Weather in Paris",
 *   () => "Here it is",
 * ); // '{"city":"Paris"}'
 * ```
 */
export function formattedReply(
  params: ChatParams & { response_format?: unknown },
  key: string,
  userText: string,
  freeText: () => string,
): string | undefined {
  const format = params.response_format;
  if (!isRecord(format)) return undefined;
  if (format["type"] === "json_object") return JSON.stringify({ reply: freeText() });
  if (format["type"] !== "json_schema") return undefined;
  const spec = isRecord(format["json_schema"]) ? format["json_schema"] : {};
  // A json_schema without `schema` constrains nothing (vLLM sets no json constraint for it).
  if (spec["schema"] == null) return undefined;
  const temperature = params.temperature ?? 1;
  const sampled = params.seed != null && temperature > 0;
  return JSON.stringify(
    schemaValue(spec["schema"], {
      text: userText,
      toolName: typeof spec["name"] === "string" ? spec["name"] : "",
      random: sampled ? seededRandom(hash32(`${key}\u0000${temperature}\u0000response_format`)) : undefined,
      temperature,
    }),
  );
}
