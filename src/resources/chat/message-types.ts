/**
 * Named types of `messages` and `tools` in a chat request. Exact: no index signature, so a
 * misspelt key in an object literal (`nmae: "bob"`) is a compile error. At run time unknown keys
 * still reach the server, except one within two edits of a known key of the message's role,
 * which is refused with a "did you mean".
 *
 * @module
 */
import type { ChatCompletionAnyContentPart, ChatCompletionAssistantContentPart } from "./content-part-types.js";

/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 *
 * @example
 * ```ts
 * const call: ChatCompletionMessageToolCallParam = {
 *   id: "call_1",
 *   type: "function",
 *   function: { name: "get_weather", arguments: '{"city":"Paris"}' },
 * };
 * ```
 */
export interface ChatCompletionMessageToolCallParam {
  /** Id of the call, answered by the `tool` message whose `tool_call_id` is the same. */
  id: string;
  /** Always `"function"`. */
  type: "function";
  /** The function called. */
  function: {
    /** Name of the function, as offered in `tools`. */
    name: string;
    /** Its arguments as a JSON text, exactly as the model wrote them (it may not be valid JSON). */
    arguments: string;
  };
}

/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 *
 * @example
 * ```ts
 * const fn: FunctionDefinition = {
 *   name: "get_weather",
 *   description: "Current weather of a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * };
 * ```
 */
export interface FunctionDefinition {
  /** Name the model calls the function by. */
  name: string;
  /** What the function does, for the model to decide when to call it. */
  description?: string | null;
  /** JSON Schema of the arguments object. Absent or null: the function takes no arguments. */
  parameters?: Record<string, unknown> | null;
  /** Ask the server to hold the arguments to `parameters` exactly. Default: not strict. */
  strict?: boolean | null;
}

/**
 * An item of `tools`: a function the model may call.
 *
 * @example
 * ```ts
 * const tool: ChatCompletionTool = { type: "function", function: { name: "get_time" } };
 * ```
 */
export interface ChatCompletionTool {
  /** Always `"function"`; vLLM fills it in when absent. */
  type?: "function";
  /** The function offered. */
  function: FunctionDefinition;
}

/**
 * A developer message: instructions that replace system messages for newer reasoning-style models.
 *
 * @example
 * ```ts
 * const m: ChatCompletionDeveloperMessageParam = { role: "developer", content: "Answer tersely." };
 * ```
 */
export interface ChatCompletionDeveloperMessageParam {
  /** Always `"developer"`. */
  role: "developer";
  /** The instructions: a string or content parts (text usually; vLLM takes any part). */
  content?: string | ChatCompletionAnyContentPart[];
  /** Name of the participant, to tell apart several of the same role. */
  name?: string;
}

/**
 * A system message: instructions for the whole conversation.
 *
 * @example
 * ```ts
 * const m: ChatCompletionSystemMessageParam = { role: "system", content: "You are helpful." };
 * ```
 */
export interface ChatCompletionSystemMessageParam {
  /** Always `"system"`. */
  role: "system";
  /** The instructions: a string or content parts (text usually; vLLM takes any part). */
  content?: string | ChatCompletionAnyContentPart[];
  /** Name of the participant, to tell apart several of the same role. */
  name?: string;
}

/**
 * A user message: a string, or content parts (text, images, audio, video, files).
 *
 * @example
 * ```ts
 * const m: ChatCompletionUserMessageParam = {
 *   role: "user",
 *   content: [
 *     { type: "text", text: "Describe this" },
 *     { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
 *   ],
 * };
 * ```
 */
export interface ChatCompletionUserMessageParam {
  /** Always `"user"`. */
  role: "user";
  /** What the user said: a string, or content parts. */
  content?: string | ChatCompletionAnyContentPart[];
  /** Name of the participant, to tell apart several users. */
  name?: string;
}

/**
 * An assistant message: an earlier reply, or the start of one to continue. The nullable fields
 * take a reply message as the server returned it, so it can be sent back as is.
 *
 * @example
 * ```ts
 * const m: ChatCompletionAssistantMessageParam = {
 *   role: "assistant",
 *   content: null,
 *   tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
 * };
 * ```
 */
export interface ChatCompletionAssistantMessageParam {
  /** Always `"assistant"`. */
  role: "assistant";
  /**
   * What the assistant said: a string, or text and refusal parts. May be null or absent, for
   * example when the reply was only tool calls.
   */
  content?: string | ChatCompletionAssistantContentPart[] | null;
  /** Name of the participant, to tell apart several assistants. */
  name?: string;
  /** The refusal the model wrote instead of an answer. */
  refusal?: string | null;
  /** The tool calls the reply made; each is answered by a `tool` message. */
  tool_calls?: ChatCompletionMessageToolCallParam[] | null;
  /**
   * The function call the reply made.
   * @deprecated Superseded by `tool_calls`.
   */
  function_call?: {
    /** Name of the function called. */
    name: string;
    /** Its arguments as a JSON text. */
    arguments: string;
  } | null;
  /**
   * The reasoning that preceded the reply, for templates that render interleaved thinking: a
   * string in practice (vLLM passes any value to the template as is).
   */
  reasoning?: unknown;
  /** Older servers' name for `reasoning`. */
  reasoning_content?: unknown;
  /** Reference to an earlier audio reply, by the `id` the server gave it. */
  audio?: {
    /** Id of the audio reply. */
    id: string;
  } | null;
}

/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 *
 * @example
 * ```ts
 * const m: ChatCompletionToolMessageParam = { role: "tool", tool_call_id: "call_1", content: "18°C" };
 * ```
 */
export interface ChatCompletionToolMessageParam {
  /** Always `"tool"`. */
  role: "tool";
  /** The tool's result: a string or content parts (text usually; images reach templates that show them). */
  content?: string | ChatCompletionAnyContentPart[];
  /** `id` of the assistant tool call this answers (optional or null for vLLM; templates that match calls need it). */
  tool_call_id?: string | null;
  /** Name of the tool, for templates that show it. */
  name?: string;
}

/**
 * A function result, answering a `function_call`.
 *
 * @deprecated Superseded by tool messages (`role: "tool"`).
 * @example
 * ```ts
 * const m: ChatCompletionFunctionMessageParam = { role: "function", name: "get_time", content: "12:00" };
 * ```
 */
export interface ChatCompletionFunctionMessageParam {
  /** Always `"function"`. */
  role: "function";
  /** Name of the function whose result this is. */
  name?: string;
  /** The function's result: a string, content parts or null. */
  content?: string | ChatCompletionAnyContentPart[] | null;
}

/**
 * A message with a role of its own (the spec's "custom" kind; vLLM's free-form message), such
 * as `"ipython"` for tool output in some templates. The chat template decides what it means.
 *
 * @example
 * ```ts
 * const m: ChatCompletionCustomMessageParam = { role: "ipython", content: "42" };
 * ```
 */
export interface ChatCompletionCustomMessageParam {
  /** Any role the model's chat template knows. */
  role: string;
  /** The message's content: a string or content parts. May be absent, not null (vLLM refuses null here). */
  content?: string | ChatCompletionAnyContentPart[];
  /** Name of the participant. */
  name?: string;
  /** `id` of the assistant tool call this message answers, if it is a tool result. */
  tool_call_id?: string | null;
  /** Tool calls this message carries, if it is a reply. */
  tool_calls?: ChatCompletionMessageToolCallParam[] | null;
  /** Reasoning that preceded the message, for templates that render interleaved thinking. */
  reasoning?: string | null;
}

/**
 * The spec's "generic" message kind: role `"generic"` with content and an optional name.
 *
 * @example
 * ```ts
 * const m: ChatCompletionGenericMessageParam = { role: "generic", content: "note" };
 * ```
 */
export interface ChatCompletionGenericMessageParam {
  /** Always `"generic"`. */
  role: "generic";
  /** The message's content: a string or content parts. */
  content?: string | ChatCompletionAnyContentPart[];
  /** Name of the participant. */
  name?: string;
}

/**
 * Any message of `messages`, told apart by `role`.
 *
 * @example
 * ```ts
 * const messages: ChatCompletionMessageParam[] = [
 *   { role: "system", content: "Be brief." },
 *   { role: "user", content: "Hi" },
 * ];
 * ```
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
 *
 * @example
 * ```ts
 * const role: ChatCompletionRole = "assistant";
 * ```
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
