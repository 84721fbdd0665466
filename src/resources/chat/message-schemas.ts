/**
 * Zod schemas for `messages`: the tool calls an assistant message carries, the tools a
 * request offers, the eight message kinds (developer, system, user, assistant, tool,
 * function, custom, generic) and the union of them chosen by `role`. Loose objects (unknown
 * keys are kept); see `request-schema.ts` for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import type { Agrees, Check, SchemaOf, Within } from "../schema-agreement.js";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { chatCompletionAnyContentPartSchema } from "./content-part-schemas.js";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCustomMessageParam,
  ChatCompletionDeveloperMessageParam,
  ChatCompletionFunctionMessageParam,
  ChatCompletionGenericMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCallParam,
  ChatCompletionSystemMessageParam,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
  FunctionDefinition,
} from "./message-types.js";

export type * from "./message-types.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

// ---------------------------------------------------------------------------
// Message content
// ---------------------------------------------------------------------------

// What a message's `content` may be: a string or any content parts. vLLM's free-form message
// (chat_utils.CustomChatCompletionMessageParam) takes every part on every role, so images on a
// system message or thinking on an assistant turn reach the chat template; `null` only where
// OpenAI's own message types allow it (assistant, function).
const anyContent = z.union([z.string(), z.array(chatCompletionAnyContentPartSchema)]);

// ---------------------------------------------------------------------------
// Tool calls and tools
// ---------------------------------------------------------------------------

const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string(),
    arguments: z.string(),
  }),
});
/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 * @example
 * chatCompletionMessageToolCallParamSchema.parse({
 *   id: "call_1",
 *   type: "function",
 *   function: { name: "get_weather", arguments: "{\"city\":\"Paris\"}" },
 * });
 */
export const chatCompletionMessageToolCallParamSchema: SchemaOf<ChatCompletionMessageToolCallParam> = toolCall;

const functionDefinition = z.looseObject({
  name: z.string(),
  description: z.nullish(z.string()),
  parameters: z.nullish(z.record(z.string(), z.unknown())),
  strict: z.nullish(z.boolean()),
});
/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 * @example
 * functionDefinitionSchema.parse({
 *   name: "get_weather",
 *   description: "Current weather of a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * });
 */
export const functionDefinitionSchema: SchemaOf<FunctionDefinition> = functionDefinition;

// vLLM defaults `type` to "function" (ChatCompletionToolsParam).
const tool = z.looseObject({
  type: z.optional(z.literal("function")),
  function: functionDefinitionSchema,
});
/**
 * An item of `tools`: `type` is always `"function"`.
 * @example
 * chatCompletionToolSchema.parse({ type: "function", function: { name: "get_time" } });
 */
export const chatCompletionToolSchema: SchemaOf<ChatCompletionTool> = tool;

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

const developerMessage = z.looseObject({
  role: z.literal("developer"),
  content: z.optional(anyContent),
  name: z.optional(z.string()),
});
/**
 * A developer message (replaces system messages for newer reasoning-style models).
 * @example
 * chatCompletionDeveloperMessageParamSchema.parse({ role: "developer", content: "Answer tersely." });
 */
export const chatCompletionDeveloperMessageParamSchema: SchemaOf<ChatCompletionDeveloperMessageParam> =
  developerMessage;

const systemMessage = z.looseObject({
  role: z.literal("system"),
  content: z.optional(anyContent),
  name: z.optional(z.string()),
});
/**
 * A system message.
 * @example
 * chatCompletionSystemMessageParamSchema.parse({ role: "system", content: "You are helpful." });
 */
export const chatCompletionSystemMessageParamSchema: SchemaOf<ChatCompletionSystemMessageParam> = systemMessage;

const userMessage = z.looseObject({
  role: z.literal("user"),
  content: z.optional(anyContent),
  name: z.optional(z.string()),
});
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
export const chatCompletionUserMessageParamSchema: SchemaOf<ChatCompletionUserMessageParam> = userMessage;

const assistantMessage = z.looseObject({
  role: z.literal("assistant"),
  content: z.nullish(anyContent),
  name: z.optional(z.string()),
  refusal: z.nullish(z.string()),
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  function_call: z.nullish(z.looseObject({ name: z.string(), arguments: z.string() })),
  // OpenAI's assistant message does not declare these, so vLLM takes any value.
  reasoning: z.optional(z.unknown()),
  reasoning_content: z.optional(z.unknown()),
  audio: z.nullish(z.looseObject({ id: z.string() })),
});

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
export const chatCompletionAssistantMessageParamSchema: SchemaOf<ChatCompletionAssistantMessageParam> =
  assistantMessage;

const toolMessage = z.looseObject({
  role: z.literal("tool"),
  content: z.optional(anyContent),
  // null: vLLM's free-form message takes it (chat_utils.CustomChatCompletionMessageParam).
  tool_call_id: z.nullish(z.string()),
  name: z.optional(z.string()),
});
/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 * @example
 * chatCompletionToolMessageParamSchema.parse({ role: "tool", tool_call_id: "call_1", content: "18°C" });
 */
export const chatCompletionToolMessageParamSchema: SchemaOf<ChatCompletionToolMessageParam> = toolMessage;

const functionMessage = z.looseObject({
  role: z.literal("function"),
  name: z.optional(z.string()),
  content: z.nullish(anyContent),
});
/**
 * A function result (deprecated form of tool messages): `name` is the function's name.
 * @example
 * chatCompletionFunctionMessageParamSchema.parse({ role: "function", name: "get_time", content: "12:00" });
 */
export const chatCompletionFunctionMessageParamSchema: SchemaOf<ChatCompletionFunctionMessageParam> = functionMessage;

const customMessage = z.looseObject({
  role: z.literal("custom"),
  // vLLM's free-form message types content as str | list: null is refused, absent is fine.
  content: z.optional(anyContent),
  name: z.optional(z.string()),
  tool_call_id: z.nullish(z.string()),
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  reasoning: z.nullish(z.string()),
});
/**
 * The spec's "custom" message kind: role `"custom"`, any content (or null), plus the
 * per-message fields vLLM's free-form message carries (`tool_call_id`, `tool_calls`,
 * `reasoning`). This schema takes only the role `"custom"`; a message with any other role the
 * SDK does not name (`ipython`, ...) is not refused but sent as a custom-role message
 * ({@link chatCompletionCustomRoleMessageParamSchema}).
 * @example
 * chatCompletionCustomMessageParamSchema.parse({ role: "custom", content: "state: ready" });
 */
export const chatCompletionCustomMessageParamSchema: SchemaOf<ChatCompletionCustomMessageParam> = customMessage;

const genericMessage = z.looseObject({
  role: z.literal("generic"),
  content: z.optional(anyContent),
  name: z.optional(z.string()),
});
/**
 * The spec's "generic" message kind: role `"generic"` with content and an optional name.
 * @example
 * chatCompletionGenericMessageParamSchema.parse({ role: "generic", content: "note" });
 */
export const chatCompletionGenericMessageParamSchema: SchemaOf<ChatCompletionGenericMessageParam> = genericMessage;

const customRoleMessage = z.looseObject({ ...customMessage.shape, role: z.string() });

const message = taggedUnion(
  "role",
  [
    developerMessage,
    systemMessage,
    userMessage,
    assistantMessage,
    toolMessage,
    functionMessage,
    customMessage,
    genericMessage,
  ],
  customRoleMessage,
  { refuseNearMisses: true },
);
/**
 * A message with a role the SDK does not name (`ipython`, `environment`, ...): vLLM's
 * free-form message, with any content (or null) and the per-message fields it reads. This is
 * the spec's "custom" message kind under the role the chat template expects.
 * @example
 * chatCompletionCustomRoleMessageParamSchema.parse({ role: "ipython", content: "42" });
 */
export const chatCompletionCustomRoleMessageParamSchema: SchemaOf<ChatCompletionCustomMessageParam> = customRoleMessage;

/**
 * Any message of `messages`, chosen by `role`. Roles: developer, system, user, assistant,
 * tool, function, custom, generic, and any other role string as a custom-role message
 * (vLLM passes it to the chat template). A role that is not a string is refused. Unknown keys
 * are kept and sent, except a near miss of a key the role knows (`nmae` for `name`, at most two
 * edits away), which is refused with a "did you mean".
 * @example
 * chatCompletionMessageParamSchema.parse({ role: "user", content: "Hi" });
 */
export const chatCompletionMessageParamSchema: SchemaOf<ChatCompletionMessageParam> = message;

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof toolCall>, ChatCompletionMessageToolCallParam>,
    Agrees<z.input<typeof functionDefinition>, FunctionDefinition>,
    Agrees<z.input<typeof tool>, ChatCompletionTool>,
    Agrees<z.input<typeof developerMessage>, ChatCompletionDeveloperMessageParam>,
    Agrees<z.input<typeof systemMessage>, ChatCompletionSystemMessageParam>,
    Agrees<z.input<typeof userMessage>, ChatCompletionUserMessageParam>,
    Agrees<z.input<typeof assistantMessage>, ChatCompletionAssistantMessageParam>,
    Agrees<z.input<typeof toolMessage>, ChatCompletionToolMessageParam>,
    Agrees<z.input<typeof functionMessage>, ChatCompletionFunctionMessageParam>,
    // The named "custom" option takes role "custom"; any other role string reaches the
    // custom-role fallback, which has the same fields: together they are the custom type.
    Agrees<z.input<typeof customMessage>, ChatCompletionCustomMessageParam, "role">,
    Agrees<z.input<typeof customRoleMessage>, ChatCompletionCustomMessageParam>,
    Agrees<z.input<typeof genericMessage>, ChatCompletionGenericMessageParam>,
    Within<z.input<typeof message>, ChatCompletionMessageParam>,
  ]
>;
