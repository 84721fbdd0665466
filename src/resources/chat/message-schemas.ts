/**
 * Zod schemas for `messages`: the tool calls an assistant message carries, the tools a
 * request offers, the eight message kinds (developer, system, user, assistant, tool,
 * function, custom, generic) and the union of them chosen by `role`. Loose objects (unknown
 * keys are kept); see `request-schema.ts` for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import {
  chatCompletionAnyContentPartSchema,
  chatCompletionAssistantContentPartSchema,
  chatCompletionContentPartSchema,
  chatCompletionContentPartTextSchema,
} from "./content-part-schemas.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

// ---------------------------------------------------------------------------
// Message content
// ---------------------------------------------------------------------------

// What a message's `content` may be: text only (developer, system, tool), the user's parts,
// or any part (custom, generic).
const textContent = z.union([z.string(), z.array(chatCompletionContentPartTextSchema)]);
const userContent = z.union([z.string(), z.array(chatCompletionContentPartSchema)]);
const anyContent = z.union([z.string(), z.array(chatCompletionAnyContentPartSchema)]);

// ---------------------------------------------------------------------------
// Tool calls and tools
// ---------------------------------------------------------------------------

/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 * @example
 * chatCompletionMessageToolCallParamSchema.parse({
 *   id: "call_1",
 *   type: "function",
 *   function: { name: "get_weather", arguments: "{\"city\":\"Paris\"}" },
 * });
 */
export const chatCompletionMessageToolCallParamSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string(),
    arguments: z.string(),
  }),
});
/**
 * A message tool call param of a chat completion request.
 *
 * @example
 * const c: ChatCompletionMessageToolCallParam = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };
 */
export type ChatCompletionMessageToolCallParam = z.input<typeof chatCompletionMessageToolCallParamSchema>;

/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 * @example
 * functionDefinitionSchema.parse({
 *   name: "get_weather",
 *   description: "Current weather of a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * });
 */
export const functionDefinitionSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.unknown())),
  strict: z.nullish(z.boolean()),
});
/**
 * A function definition of a chat completion request.
 *
 * @example
 * const f: FunctionDefinition = { name: "get_time", parameters: { type: "object" } };
 */
export type FunctionDefinition = z.input<typeof functionDefinitionSchema>;

/**
 * An item of `tools`: `type` is always `"function"`.
 * @example
 * chatCompletionToolSchema.parse({ type: "function", function: { name: "get_time" } });
 */
export const chatCompletionToolSchema = z.looseObject({
  type: z.literal("function"),
  function: functionDefinitionSchema,
});
/**
 * A tool of a chat completion request.
 *
 * @example
 * const t: ChatCompletionTool = { type: "function", function: { name: "get_time" } };
 */
export type ChatCompletionTool = z.input<typeof chatCompletionToolSchema>;

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/**
 * A developer message (replaces system messages for newer reasoning-style models).
 * @example
 * chatCompletionDeveloperMessageParamSchema.parse({ role: "developer", content: "Answer tersely." });
 */
export const chatCompletionDeveloperMessageParamSchema = z.looseObject({
  role: z.literal("developer"),
  content: textContent,
  name: z.optional(z.string()),
});
/**
 * A developer message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionDeveloperMessageParam = { role: "developer", content: "Be brief." };
 */
export type ChatCompletionDeveloperMessageParam = z.input<typeof chatCompletionDeveloperMessageParamSchema>;

/**
 * A system message.
 * @example
 * chatCompletionSystemMessageParamSchema.parse({ role: "system", content: "You are helpful." });
 */
export const chatCompletionSystemMessageParamSchema = z.looseObject({
  role: z.literal("system"),
  content: textContent,
  name: z.optional(z.string()),
});
/**
 * A system message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionSystemMessageParam = { role: "system", content: "You are helpful." };
 */
export type ChatCompletionSystemMessageParam = z.input<typeof chatCompletionSystemMessageParamSchema>;

/**
 * A user message: a string, or an array of content parts (text, images, audio, video, files).
 * @example
 * chatCompletionUserMessageParamSchema.parse({
 *   role: "user",
 *   content: [
 *     { type: "text", text: "Describe this" },
 *     { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
 *   ],
 * });
 */
export const chatCompletionUserMessageParamSchema = z.looseObject({
  role: z.literal("user"),
  content: userContent,
  name: z.optional(z.string()),
});
/**
 * A user message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionUserMessageParam = { role: "user", content: "Hi" };
 */
export type ChatCompletionUserMessageParam = z.input<typeof chatCompletionUserMessageParamSchema>;

/**
 * An assistant message. `content` may be null or absent, with or without `tool_calls`, as
 * vLLM and OpenAI accept (a prefill or an empty turn). The nullable fields accept a reply
 * message as returned by the server, so it can be sent back as is.
 * @example
 * chatCompletionAssistantMessageParamSchema.parse({
 *   role: "assistant",
 *   content: null,
 *   tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
 * });
 */
export const chatCompletionAssistantMessageParamSchema = z.looseObject({
  role: z.literal("assistant"),
  content: z.nullish(z.union([z.string(), z.array(chatCompletionAssistantContentPartSchema)])),
  name: z.optional(z.string()),
  refusal: z.nullish(z.string()),
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  function_call: z.nullish(z.looseObject({ name: z.string(), arguments: z.string() })),
  reasoning: z.nullish(z.string()),
  reasoning_content: z.nullish(z.string()),
  audio: z.nullish(z.looseObject({ id: z.string() })),
});
/**
 * A assistant message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionAssistantMessageParam = { role: "assistant", content: "Hello!" };
 */
export type ChatCompletionAssistantMessageParam = z.input<typeof chatCompletionAssistantMessageParamSchema>;

/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 * @example
 * chatCompletionToolMessageParamSchema.parse({ role: "tool", tool_call_id: "call_1", content: "18°C" });
 */
export const chatCompletionToolMessageParamSchema = z.looseObject({
  role: z.literal("tool"),
  content: textContent,
  tool_call_id: z.string(),
  name: z.optional(z.string()),
});
/**
 * A tool message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionToolMessageParam = { role: "tool", tool_call_id: "call_1", content: "42" };
 */
export type ChatCompletionToolMessageParam = z.input<typeof chatCompletionToolMessageParamSchema>;

/**
 * A function result (deprecated form of tool messages): `name` is the function's name.
 * @example
 * chatCompletionFunctionMessageParamSchema.parse({ role: "function", name: "get_time", content: "12:00" });
 */
export const chatCompletionFunctionMessageParamSchema = z.looseObject({
  role: z.literal("function"),
  name: z.string(),
  content: z.nullable(z.string()),
});
/**
 * A function message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionFunctionMessageParam = { role: "function", name: "f", content: "42" };
 */
export type ChatCompletionFunctionMessageParam = z.input<typeof chatCompletionFunctionMessageParamSchema>;

/**
 * The spec's "custom" message kind: role `"custom"`, any content (or null), plus the
 * per-message fields vLLM's free-form message carries (`tool_call_id`, `tool_calls`,
 * `reasoning`). A message with any other role vLLM does not name (`ipython`, ...) has the same
 * shape: see {@link chatCompletionCustomRoleMessageParamSchema}.
 * @example
 * chatCompletionCustomMessageParamSchema.parse({ role: "custom", content: "state: ready" });
 */
export const chatCompletionCustomMessageParamSchema = z.looseObject({
  role: z.literal("custom"),
  content: z.nullish(anyContent),
  name: z.optional(z.string()),
  tool_call_id: z.optional(z.string()),
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  reasoning: z.nullish(z.string()),
});
/**
 * A custom message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionCustomMessageParam = { role: "custom", content: "state: ready" };
 */
export type ChatCompletionCustomMessageParam = z.input<typeof chatCompletionCustomMessageParamSchema>;

/**
 * The spec's "generic" message kind: role `"generic"` with content and an optional name.
 * @example
 * chatCompletionGenericMessageParamSchema.parse({ role: "generic", content: "note" });
 */
export const chatCompletionGenericMessageParamSchema = z.looseObject({
  role: z.literal("generic"),
  content: anyContent,
  name: z.optional(z.string()),
});
/**
 * A generic message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionGenericMessageParam = { role: "generic", content: "note" };
 */
export type ChatCompletionGenericMessageParam = z.input<typeof chatCompletionGenericMessageParamSchema>;

/**
 * A message with a role the SDK does not name (`ipython`, `environment`, ...): vLLM's
 * free-form message, with any content (or null) and the per-message fields it reads. This is
 * the spec's "custom" message kind under the role the chat template expects.
 * @example
 * chatCompletionCustomRoleMessageParamSchema.parse({ role: "ipython", content: "42" });
 */
export const chatCompletionCustomRoleMessageParamSchema = z.looseObject({
  ...chatCompletionCustomMessageParamSchema.shape,
  role: z.string(),
});
/**
 * A message with any other role (for example `ipython`), sent as written.
 *
 * @example
 * const m: ChatCompletionCustomRoleMessageParam = { role: "ipython", content: "42" };
 */
export type ChatCompletionCustomRoleMessageParam = Omit<
  z.input<typeof chatCompletionCustomRoleMessageParamSchema>,
  "role"
> & {
  // `string & {}` keeps editor completion of the named roles in the union while taking any other.
  role: string & {};
};

/**
 * Any message of `messages`, chosen by `role`. Roles: developer, system, user, assistant,
 * tool, function, custom, generic, and any other role string as a custom-role message
 * (vLLM passes it to the chat template). A role that is not a string is refused.
 * @example
 * chatCompletionMessageParamSchema.parse({ role: "user", content: "Hi" });
 */
export const chatCompletionMessageParamSchema = taggedUnion(
  "role",
  [
    chatCompletionDeveloperMessageParamSchema,
    chatCompletionSystemMessageParamSchema,
    chatCompletionUserMessageParamSchema,
    chatCompletionAssistantMessageParamSchema,
    chatCompletionToolMessageParamSchema,
    chatCompletionFunctionMessageParamSchema,
    chatCompletionCustomMessageParamSchema,
    chatCompletionGenericMessageParamSchema,
  ],
  chatCompletionCustomRoleMessageParamSchema,
);
/** Any message of `messages`. @example const msgs: ChatCompletionMessageParam[] = [{ role: "user", content: "Hi" }]; */
export type ChatCompletionMessageParam =
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionSystemMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam
  | ChatCompletionFunctionMessageParam
  | ChatCompletionCustomMessageParam
  | ChatCompletionGenericMessageParam
  | ChatCompletionCustomRoleMessageParam;
/** The `role` values accepted in `messages`. @example const r: ChatCompletionRole = "assistant"; */
export type ChatCompletionRole = ChatCompletionMessageParam["role"];
