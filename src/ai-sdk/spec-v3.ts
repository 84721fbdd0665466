// The AI SDK's language model specification v3 (what `ai` 6 calls), as inferloop's own types.
//
// `inferloop/ai-sdk/v3`'s declarations take nothing from `@ai-sdk/provider`: `ai` 6 keeps its own
// `@ai-sdk/provider` 3 (nested when the top level has 4, which an unversioned `npm install
// @ai-sdk/provider` gives), and 4's JSON types are readonly where 3's are not, so a model typed by
// the top level's copy would not be `ai` 6's `LanguageModel`. These types are structural: what a
// model gives back is assignable to the specification's types of either copy, and the call it
// takes is the specification's call. Written from the specification of `@ai-sdk/provider` 3.
// JSON is mutable in what a model gives back (so it is 3's JSON and 4's readonly JSON alike) and
// readonly in what it takes (so a call typed by either copy is one). What v4 kept of v3 is
// exported for spec-v4.ts.

/** A JSON value, as the specification types provider metadata. */
export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];
/** A JSON object (an `undefined` member stands for an absent one). */
export type JSONObject = { [key: string]: JSONValue | undefined };
/** A JSON value given to the model, mutable or not. */
export type JSONInput =
  | null
  | string
  | number
  | boolean
  | { readonly [key: string]: JSONInput | undefined }
  | readonly JSONInput[];

/** Options for a provider, by provider name (`providerOptions.inferloop`). */
export type ProviderOptions = Record<string, { readonly [key: string]: JSONInput | undefined }>;
/** Extra outputs of a provider, by provider name (`providerMetadata.inferloop`). */
export type ProviderMetadata = Record<string, JSONObject>;
export type WithOptions = { providerOptions?: ProviderOptions };
export type WithMetadata = { providerMetadata?: ProviderMetadata };

// The call: the prompt, the settings and the tools.

/** A file's content: bytes, base64 text or a URL. */
export type V3DataContent = Uint8Array | string | URL;
export type TextPart = { type: "text"; text: string } & WithOptions;
export type ReasoningPart = { type: "reasoning"; text: string } & WithOptions;
/** A file in the prompt. */
export type V3FilePart = {
  type: "file";
  filename?: string;
  data: V3DataContent;
  mediaType: string;
} & WithOptions;
export type ToolCallPart = {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerExecuted?: boolean;
} & WithOptions;

/** An item of a tool result's `content` output: one kind per form of a file or image. */
export type V3ToolResultContentItem = (
  | { type: "text"; text: string }
  | { type: "file-data"; data: string; mediaType: string; filename?: string }
  | { type: "file-url"; url: string; mediaType?: string }
  | { type: "file-id"; fileId: string | Record<string, string> }
  | { type: "image-data"; data: string; mediaType: string }
  | { type: "image-url"; url: string }
  | { type: "image-file-id"; fileId: string | Record<string, string> }
  | { type: "custom" }
) &
  WithOptions;

/** What a tool gave back, in the prompt. */
export type V3ToolResultOutput = (
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: JSONInput }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: V3ToolResultContentItem[] }
) &
  WithOptions;

/** A tool's result in the prompt. */
export type V3ToolResultPart = {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: V3ToolResultOutput;
} & WithOptions;
export type ToolApprovalResponsePart = {
  type: "tool-approval-response";
  approvalId: string;
  approved: boolean;
  reason?: string;
} & WithOptions;

/** One message of the prompt. */
export type V3Message = (
  | { role: "system"; content: string }
  | { role: "user"; content: Array<TextPart | V3FilePart> }
  | {
      role: "assistant";
      content: Array<TextPart | V3FilePart | ReasoningPart | ToolCallPart | V3ToolResultPart>;
    }
  | { role: "tool"; content: Array<V3ToolResultPart | ToolApprovalResponsePart> }
) &
  WithOptions;
/** The prompt: the conversation so far. */
export type V3Prompt = V3Message[];

/** A tool the model may call; `inputSchema` is a JSON Schema (draft 7) object. */
export type FunctionTool = {
  type: "function";
  name: string;
  description?: string;
  inputSchema: object;
  inputExamples?: Array<{ input: { readonly [key: string]: JSONInput | undefined } }>;
  strict?: boolean;
} & WithOptions;
/** A tool another provider runs itself (vLLM runs none). */
export type ProviderTool = {
  type: "provider";
  id: `${string}.${string}`;
  name: string;
  args: Record<string, unknown>;
};

/** The settings of a call, but its prompt: the same in v3 and v4 (which adds `reasoning`). */
export type CallSettings = {
  maxOutputTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** JSON output (`schema` is a JSON Schema object), or text. */
  responseFormat?: { type: "text" } | { type: "json"; schema?: object; name?: string; description?: string };
  seed?: number;
  tools?: Array<FunctionTool | ProviderTool>;
  toolChoice?: { type: "auto" | "none" | "required" } | { type: "tool"; toolName: string };
  /** Adds each chunk as the server sent it to the stream, as a `raw` part. */
  includeRawChunks?: boolean;
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
  providerOptions?: ProviderOptions;
};

/** The call of `doGenerate` and `doStream`. */
export type LanguageModelV3CallOptions = CallSettings & { prompt: V3Prompt };

// The reply.

/** A note on a setting or part of the call the model could not honour. */
export type V3Warning =
  | { type: "unsupported" | "compatibility"; feature: string; details?: string }
  | { type: "other"; message: string };

/** Why the reply ended: the specification's reason, and the server's own as `raw`. */
export type V3FinishReason = {
  unified: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";
  raw: string | undefined;
};

/** Token counts; a figure the server did not send is `undefined`. */
export type Usage = {
  inputTokens: {
    total: number | undefined;
    noCache: number | undefined;
    cacheRead: number | undefined;
    cacheWrite: number | undefined;
  };
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined };
  raw?: JSONObject;
};

export type TextContent = { type: "text"; text: string } & WithMetadata;
export type ReasoningContent = { type: "reasoning"; text: string } & WithMetadata;
type V3File = { type: "file"; mediaType: string; data: string | Uint8Array } & WithMetadata;
export type Source = (
  | { type: "source"; sourceType: "url"; id: string; url: string; title?: string }
  | { type: "source"; sourceType: "document"; id: string; mediaType: string; title: string; filename?: string }
) &
  WithMetadata;
export type ToolApprovalRequest = {
  type: "tool-approval-request";
  approvalId: string;
  toolCallId: string;
} & WithMetadata;
/** A tool call of the reply; `input` is the arguments' JSON text. */
export type ToolCall = {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: string;
  providerExecuted?: boolean;
  dynamic?: boolean;
} & WithMetadata;
export type ToolResult = {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  result: NonNullable<JSONValue>;
  isError?: boolean;
  preliminary?: boolean;
  dynamic?: boolean;
} & WithMetadata;

/** A part of a generated reply. */
export type V3Content = TextContent | ReasoningContent | V3File | ToolApprovalRequest | Source | ToolCall | ToolResult;

export type ResponseMetadata = { id?: string; timestamp?: Date; modelId?: string };

/** What `doGenerate` gives back. */
export type LanguageModelV3GenerateResult = {
  content: V3Content[];
  finishReason: V3FinishReason;
  usage: Usage;
  providerMetadata?: ProviderMetadata;
  request?: { body?: unknown };
  response?: ResponseMetadata & { headers?: Record<string, string>; body?: unknown };
  warnings: V3Warning[];
};

/** The start, a piece and the end of a streamed text or reasoning block. */
export type BlockPart<Kind extends string> =
  | ({ type: `${Kind}-start` | `${Kind}-end`; id: string } & WithMetadata)
  | ({ type: `${Kind}-delta`; id: string; delta: string } & WithMetadata);

/** The start, a piece and the end of a tool call's streamed arguments. */
export type ToolInputPart =
  | ({
      type: "tool-input-start";
      id: string;
      toolName: string;
      inputEncoding?: "json" | "text";
      providerExecuted?: boolean;
      dynamic?: boolean;
      title?: string;
    } & WithMetadata)
  | ({ type: "tool-input-delta"; id: string; delta: string } & WithMetadata)
  | ({ type: "tool-input-end"; id: string } & WithMetadata);

/** A part of a streamed reply. */
export type V3StreamPart =
  | BlockPart<"text">
  | BlockPart<"reasoning">
  | ToolInputPart
  | ToolApprovalRequest
  | ToolCall
  | ToolResult
  | V3File
  | Source
  | { type: "stream-start"; warnings: V3Warning[] }
  | ({ type: "response-metadata" } & ResponseMetadata)
  | ({ type: "finish"; usage: Usage; finishReason: V3FinishReason } & WithMetadata)
  | { type: "raw"; rawValue: unknown }
  | { type: "error"; error: unknown };

/** What `doStream` gives back. */
export type LanguageModelV3StreamResult = {
  stream: ReadableStream<V3StreamPart>;
  request?: { body?: unknown };
  response?: { headers?: Record<string, string> };
};

/** A language model of specification v3. */
export interface LanguageModelV3 {
  readonly specificationVersion: "v3";
  readonly provider: string;
  readonly modelId: string;
  /** Media types (`image/*`) with the URL patterns the model takes as they are. */
  supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doGenerate(options: LanguageModelV3CallOptions): PromiseLike<LanguageModelV3GenerateResult>;
  doStream(options: LanguageModelV3CallOptions): PromiseLike<LanguageModelV3StreamResult>;
}

/**
 * A provider of specification v3 that makes language models only: its other kinds of model
 * throw, so a registry that asks for one gets the error.
 */
export interface ProviderV3 {
  readonly specificationVersion: "v3";
  languageModel(modelId: string): LanguageModelV3;
  embeddingModel(modelId: string): never;
  imageModel(modelId: string): never;
}
