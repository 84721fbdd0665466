/**
 * `tool({...})`: a function the model may call, with the code that runs it. Its parameters are
 * described by any Standard JSON Schema library (zod 4.2+, ArkType, valibot's
 * `toStandardJsonSchema`), whose own `validate` then checks the model's arguments, or by a plain
 * JSON Schema, which checks them itself (`json-schema-arguments.ts`).
 *
 * @module
 */

import type { ChatCompletionMessageParam, FunctionDefinition } from "../../wire/chat/message-schemas.js";
import type { ChatCompletionMessageToolCall } from "../../wire/chat/types.js";
import { dropSafeIntegerBounds } from "../structured-output/json-schema-tidy.js";
import type {
  JSONSchemaObject,
  StandardJSONSchema,
  StandardOutput,
  StandardValidationResult,
} from "../structured-output/standard-response-format.js";
import { jsonSchemaArguments } from "./json-schema-arguments.js";

/**
 * What a tool's `run` is handed beside its arguments.
 */
export interface ToolContext {
  /** Aborts when the run is aborted (or another tool fails with `onToolError: "throw"`). */
  signal: AbortSignal;
  /** The call being answered: its id, name and raw arguments text. */
  toolCall: ChatCompletionMessageToolCall;
  /** The conversation so far, up to and including the assistant message that made the call. */
  messages: readonly ChatCompletionMessageParam[];
}

/**
 * A tool as `runTools` takes it: a `tools` entry the model is offered (`type`, `function`; the
 * only enumerable members, so it can also be sent through `create` as it is) with the code that
 * answers its calls.
 */
export interface RunnableTool<Args = unknown> {
  type: "function";
  function: FunctionDefinition & { parameters: Record<string, unknown> };
  /** Runs a call; a result that is not a string is sent JSON-encoded. */
  readonly run: (args: Args, context: ToolContext) => unknown;
  /** Checks (and may transform) the parsed arguments: the value, or what is wrong with it. */
  readonly validate: (value: unknown) => StandardValidationResult<Args> | Promise<StandardValidationResult<Args>>;
}

/**
 * What {@link tool} takes.
 */
export interface ToolDefinition<Args, Schema> {
  /** The name the model calls it by. */
  name: string;
  /** What it does, for the model to decide when to call it. */
  description?: string;
  /** The arguments object: a Standard JSON Schema (zod, ArkType, valibot) or a JSON Schema. */
  parameters: Schema;
  /** Sent as `function.strict`: ask the server to hold the arguments to the schema. */
  strict?: boolean;
  /** Answers a call, with the validated arguments; may be async. */
  run: (args: Args, context: ToolContext) => unknown;
}

function isStandard(schema: unknown): schema is StandardJSONSchema & {
  "~standard": { jsonSchema: { input?: (o: { target: "draft-2020-12" }) => Record<string, unknown> } };
} {
  const std = (schema as { "~standard"?: { jsonSchema?: { output?: unknown } } } | null)?.["~standard"];
  return typeof std?.jsonSchema?.output === "function";
}

/**
 * A tool for `client.chat.completions.runTools`: its schema is sent as `function.parameters`
 * (the library's own JSON Schema of the input, draft 2020-12, `$schema` removed), and the
 * model's arguments are validated by the library before `run` sees them. A plain JSON Schema
 * is sent as written and checks the arguments itself (its `$schema` picks the draft; 2020-12
 * when absent). An invalid call is answered to the model, not thrown.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { tool } from "inferloop";
 *
 * const getWeather = tool({
 *   name: "get_weather",
 *   description: "Current weather in a city",
 *   parameters: z.object({ city: z.string() }),
 *   run: async ({ city }, { signal }) => ({ city, celsius: 21 }),
 * });
 * ```
 */
export function tool<S extends StandardJSONSchema>(
  definition: ToolDefinition<StandardOutput<S>, S>,
): RunnableTool<StandardOutput<S>>;
/**
 * @example
 * ```ts
 * const add = tool<{ a: number; b: number }>({
 *   name: "add",
 *   parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   run: ({ a, b }) => a + b,
 * });
 * ```
 */
export function tool<Args = Record<string, unknown>>(
  definition: ToolDefinition<Args, JSONSchemaObject>,
): RunnableTool<Args>;
export function tool(definition: ToolDefinition<unknown, StandardJSONSchema | JSONSchemaObject>): RunnableTool {
  const { name, description, parameters, strict, run } = definition;
  if (typeof name !== "string" || name === "") throw new TypeError("tool(): `name` must be a non-empty string");
  if (typeof run !== "function") throw new TypeError(`tool "${name}": \`run\` must be a function`);
  if ((typeof parameters !== "object" && typeof parameters !== "function") || parameters === null)
    throw new TypeError(
      `tool "${name}": \`parameters\` must be a schema (zod, ArkType, valibot) or a JSON Schema object`,
    );
  const std = (parameters as { "~standard"?: { validate?: unknown } })["~standard"];
  if (std !== undefined && !isStandard(parameters))
    throw new TypeError(
      `tool "${name}": its schema library gives no JSON Schema (Standard JSON Schema) to describe the parameters to the model; use zod 4.2+, ArkType, valibot's toStandardJsonSchema(), or a JSON Schema object`,
    );
  let jsonSchema: Record<string, unknown>;
  let validate: RunnableTool["validate"];
  if (isStandard(parameters)) {
    const js = parameters["~standard"].jsonSchema;
    // Arguments are the schema's input (what the model writes), before any transform.
    jsonSchema = structuredClone((js.input ?? js.output)({ target: "draft-2020-12" }));
    const check = parameters["~standard"].validate;
    validate = check ? (value) => check(value) : (value) => ({ value });
  } else {
    jsonSchema = structuredClone(parameters as Record<string, unknown>);
    const check = jsonSchemaArguments(name, structuredClone(jsonSchema));
    validate = (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? check(value)
        : { issues: [{ message: "the arguments must be a JSON object" }] };
  }
  delete jsonSchema.$schema;
  dropSafeIntegerBounds(jsonSchema);
  const fn: RunnableTool["function"] = { name, parameters: jsonSchema };
  if (description !== undefined) fn.description = description;
  if (strict !== undefined) fn.strict = strict;
  const out = { type: "function" as const, function: fn } as RunnableTool;
  // Not enumerable: the tool goes on the wire (and into a trajectory's `tools`) as its definition only.
  Object.defineProperty(out, "run", { value: run, enumerable: false });
  Object.defineProperty(out, "validate", { value: validate, enumerable: false });
  return out;
}

/** Whether `value` is a tool made by {@link tool}. */
export function isRunnableTool(value: unknown): value is RunnableTool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RunnableTool).run === "function" &&
    typeof (value as RunnableTool).validate === "function"
  );
}
