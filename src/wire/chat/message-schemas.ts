/**
 * Zod schemas for `messages`: the tool calls an assistant message carries, the tools a
 * request offers, the eight message kinds (developer, system, user, assistant, tool,
 * function, custom, generic: the last two vLLM's free-form message) and the union of them
 * chosen by `role`. Loose objects (unknown keys are kept); see `request-schema.ts` for the
 * rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import { type Fields, looseObject, type SchemaOf } from "../request-shapes.js";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { chatCompletionAnyContentPartSchema, chatCompletionCustomContentPartSchema } from "./content-part-schemas.js";

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
// vLLM's free-form message types content as str | list[part], where a part may also be a
// bare string or untyped (chat_utils.ChatCompletionContentPartParam).
const customContent = z.union([z.string(), z.array(chatCompletionCustomContentPartSchema)]);
const toolCall = looseObject({
  /** Id of the call, answered by the `tool` message whose `tool_call_id` is the same. */
  id: z.string(),
  /** Always `"function"`. */
  type: z.literal("function"),
  /** The function called. */
  function: looseObject({
    /** Name of the function, as offered in `tools`. */
    name: z.string(),
    /** Its arguments as a JSON text, exactly as the model wrote them (it may not be valid JSON). */
    arguments: z.string(),
  }),
});
/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 */
export interface ChatCompletionMessageToolCallParam extends Fields<typeof toolCall.shape> {}

/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 */
export const chatCompletionMessageToolCallParamSchema: SchemaOf<ChatCompletionMessageToolCallParam> = toolCall;
const functionDefinition = looseObject({
  /** Name the model calls the function by. */
  name: z.string(),
  /** What the function does, for the model to decide when to call it. */
  description: z.nullish(z.string()),
  /** JSON Schema of the arguments object. Absent or null: the function takes no arguments. */
  parameters: z.nullish(z.record(z.string(), z.unknown())),
  /** Ask the server to hold the arguments to `parameters` exactly. Default: not strict. */
  strict: z.nullish(z.boolean()),
});
/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 */
export interface FunctionDefinition extends Fields<typeof functionDefinition.shape> {}

/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 */
export const functionDefinitionSchema: SchemaOf<FunctionDefinition> = functionDefinition;
const tool = looseObject({
  /** Always `"function"`; vLLM fills it in when absent. */
  type: z.optional(z.literal("function")),
  /** The function offered. */
  function: functionDefinitionSchema,
});
/**
 * An item of `tools`: a function the model may call.
 */
export interface ChatCompletionTool extends Fields<typeof tool.shape> {}

/**
 * An item of `tools`: `type` is always `"function"`.
 */
export const chatCompletionToolSchema: SchemaOf<ChatCompletionTool> = tool;
const developerMessage = looseObject({
  /** Always `"developer"`. */
  role: z.literal("developer"),
  /** The instructions: a string or content parts (text usually; vLLM takes any part). */
  content: z.optional(anyContent),
  /** Name of the participant, to tell apart several of the same role. */
  name: z.optional(z.string()),
});
/**
 * A developer message: instructions that replace system messages for newer reasoning-style models.
 */
export interface ChatCompletionDeveloperMessageParam extends Fields<typeof developerMessage.shape> {}

/**
 * A developer message (replaces system messages for newer reasoning-style models).
 */
export const chatCompletionDeveloperMessageParamSchema: SchemaOf<ChatCompletionDeveloperMessageParam> =
  developerMessage;
const systemMessage = looseObject({
  /** Always `"system"`. */
  role: z.literal("system"),
  /** The instructions: a string or content parts (text usually; vLLM takes any part). */
  content: z.optional(anyContent),
  /** Name of the participant, to tell apart several of the same role. */
  name: z.optional(z.string()),
});
/**
 * A system message: instructions for the whole conversation.
 */
export interface ChatCompletionSystemMessageParam extends Fields<typeof systemMessage.shape> {}

/**
 * A system message.
 */
export const chatCompletionSystemMessageParamSchema: SchemaOf<ChatCompletionSystemMessageParam> = systemMessage;
const userMessage = looseObject({
  /** Always `"user"`. */
  role: z.literal("user"),
  /** What the user said: a string, or content parts. */
  content: z.optional(anyContent),
  /** Name of the participant, to tell apart several users. */
  name: z.optional(z.string()),
});
/**
 * A user message: a string, or content parts (text, images, audio, video, files).
 */
export interface ChatCompletionUserMessageParam extends Fields<typeof userMessage.shape> {}

/**
 * A user message: a string, or an array of content parts (text, images, audio, video, files).
 */
export const chatCompletionUserMessageParamSchema: SchemaOf<ChatCompletionUserMessageParam> = userMessage;
const assistantMessage = looseObject({
  /** Always `"assistant"`. */
  role: z.literal("assistant"),
  /**
   * What the assistant said: a string, or text and refusal parts. May be null or absent, for
   * example when the reply was only tool calls.
   */
  content: z.nullish(anyContent),
  /** Name of the participant, to tell apart several assistants. */
  name: z.optional(z.string()),
  /** The refusal the model wrote instead of an answer. */
  refusal: z.nullish(z.string()),
  /** The tool calls the reply made; each is answered by a `tool` message. */
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  /**
   * The function call the reply made.
   * @deprecated Superseded by `tool_calls`.
   */
  function_call: z.nullish(
    looseObject({
      /** Name of the function called. */
      name: z.string(),
      /** Its arguments as a JSON text. */
      arguments: z.string(),
    }),
  ),
  // OpenAI's assistant message does not declare these, so vLLM takes any value.
  /**
   * The reasoning that preceded the reply, for templates that render interleaved thinking: a
   * string in practice (vLLM passes any value to the template as is).
   */
  reasoning: z.optional(z.unknown()),
  /** Older servers' name for `reasoning`. */
  reasoning_content: z.optional(z.unknown()),
  /** Reference to an earlier audio reply, by the `id` the server gave it. */
  audio: z.nullish(
    looseObject({
      /** Id of the audio reply. */
      id: z.string(),
    }),
  ),
});

/**
 * An assistant message: an earlier reply, or the start of one to continue. The nullable fields
 * take a reply message as the server returned it, so it can be sent back as is.
 */
export interface ChatCompletionAssistantMessageParam extends Fields<typeof assistantMessage.shape> {}

/**
 * An assistant message. `content` may be null or absent, with or without `tool_calls`, as
 * vLLM and OpenAI accept (a prefill or an empty turn). The nullable fields accept a reply
 * message as returned by the server, so it can be sent back as is.
 */
export const chatCompletionAssistantMessageParamSchema: SchemaOf<ChatCompletionAssistantMessageParam> =
  assistantMessage;
const toolMessage = looseObject({
  /** Always `"tool"`. */
  role: z.literal("tool"),
  /** The tool's result: a string or content parts (text usually; images reach templates that show them). */
  content: z.optional(anyContent),
  // null: vLLM's free-form message takes it (chat_utils.CustomChatCompletionMessageParam).
  /** `id` of the assistant tool call this answers (optional or null for vLLM; templates that match calls need it). */
  tool_call_id: z.nullish(z.string()),
  /** Name of the tool, for templates that show it. */
  name: z.optional(z.string()),
});
/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 */
export interface ChatCompletionToolMessageParam extends Fields<typeof toolMessage.shape> {}

/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 */
export const chatCompletionToolMessageParamSchema: SchemaOf<ChatCompletionToolMessageParam> = toolMessage;
const functionMessage = looseObject({
  /** Always `"function"`. */
  role: z.literal("function"),
  /** Name of the function whose result this is. */
  name: z.optional(z.string()),
  // OpenAI's function message takes a string only: parts reach vLLM's free-form message.
  /** The function's result: a string, content parts (as a custom-role message takes them) or null. */
  content: z.nullish(customContent),
});
/**
 * A function result, answering a `function_call`.
 *
 * @deprecated Superseded by tool messages (`role: "tool"`).
 */
export interface ChatCompletionFunctionMessageParam extends Fields<typeof functionMessage.shape> {}

/**
 * A function result (deprecated form of tool messages): `name` is the function's name.
 */
export const chatCompletionFunctionMessageParamSchema: SchemaOf<ChatCompletionFunctionMessageParam> = functionMessage;

const customRoleMessageShape = {
  /** Any role the model's chat template knows. */
  role: z.string(),
  // vLLM's free-form message types content as str | list: null is refused, absent is fine.
  /**
   * The message's content: a string or parts (strings, typed parts, parts without `type`). May
   * be absent, not null (vLLM refuses null here).
   */
  content: z.optional(customContent),
  /** Name of the participant. */
  name: z.optional(z.string()),
  /** `id` of the assistant tool call this message answers, if it is a tool result. */
  tool_call_id: z.nullish(z.string()),
  /** Tool calls this message carries, if it is a reply. */
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  /** Reasoning that preceded the message, for templates that render interleaved thinking. */
  reasoning: z.nullish(z.string()),
};
// The named "custom" option takes role "custom"; any other role string reaches the
// custom-role fallback, which has the same fields: together they are the custom type.
const customMessage = looseObject({ ...customRoleMessageShape, role: z.literal("custom") });
const customRoleMessage = looseObject(customRoleMessageShape);
/**
 * A message with a role of its own (the spec's "custom" kind; vLLM's free-form message), such
 * as `"ipython"` for tool output in some templates. The chat template decides what it means.
 */
export interface ChatCompletionCustomMessageParam extends Fields<typeof customRoleMessageShape> {}

/**
 * The spec's "custom" message kind: role `"custom"`, any content (or null), plus the
 * per-message fields vLLM's free-form message carries (`tool_call_id`, `tool_calls`,
 * `reasoning`). This schema takes only the role `"custom"`; a message with any other role the
 * SDK does not name (`ipython`, ...) is not refused but sent as a custom-role message
 * ({@link chatCompletionCustomRoleMessageParamSchema}).
 */
export const chatCompletionCustomMessageParamSchema: SchemaOf<ChatCompletionCustomMessageParam> = customMessage;
// `generic` is no role of vLLM's: a message with it is vLLM's free-form message like any other
// custom role (chat_utils.CustomChatCompletionMessageParam), with its content parts.
const genericMessage = looseObject({ ...customRoleMessageShape, role: z.literal("generic") });
/**
 * The spec's "generic" message kind: role `"generic"`. vLLM has no such role, so it is a
 * custom-role message (vLLM's free-form message) that the chat template reads by its role.
 */
export interface ChatCompletionGenericMessageParam extends Fields<typeof genericMessage.shape> {}

/**
 * The spec's "generic" message kind: role `"generic"`, validated as vLLM validates it, as a
 * custom-role message (any part a custom role takes; content absent or not null).
 */
export const chatCompletionGenericMessageParamSchema: SchemaOf<ChatCompletionGenericMessageParam> = genericMessage;

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
 */
export const chatCompletionCustomRoleMessageParamSchema: SchemaOf<ChatCompletionCustomMessageParam> = customRoleMessage;

/**
 * Any message of `messages`, chosen by `role`. Roles: developer, system, user, assistant,
 * tool, function, custom, generic, and any other role string as a custom-role message
 * (vLLM passes it to the chat template). A role that is not a string is refused. Unknown keys
 * are kept and sent, except a near miss of a key the role knows (`nmae` for `name`, at most two
 * edits away), which is refused with a "did you mean".
 */
export const chatCompletionMessageParamSchema: SchemaOf<ChatCompletionMessageParam> = message;

/**
 * Any message of `messages`, told apart by `role`.
 */
export type ChatCompletionMessageParam =
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionSystemMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam
  | ChatCompletionFunctionMessageParam
  | ChatCompletionCustomMessageParam
  | ChatCompletionGenericMessageParam;

/**
 * The `role` of a message: the seven the SDK knows by name, or any other string (a custom message).
 */
export type ChatCompletionRole =
  | "developer"
  | "system"
  | "user"
  | "assistant"
  | "tool"
  | "function"
  | "generic"
  | (string & {});
