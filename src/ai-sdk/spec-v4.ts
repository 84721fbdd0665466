// The AI SDK's language model specification v4 (what `ai` 7 calls), as inferloop's own types.
//
// As spec-v3.ts does for `inferloop/ai-sdk/v3`: `inferloop/ai-sdk`'s declarations take nothing
// from `@ai-sdk/provider`, so a project whose top level has `@ai-sdk/provider` 3 (beside `ai` 7,
// which keeps its own 4 nested) still gets a typed model rather than one whose types decay to
// `any`. What a model gives back is assignable to the specification's types; the call it takes
// is the specification's call. Written from the specification of `@ai-sdk/provider` 4; the parts
// v4 kept from v3 are spec-v3.ts's.

import type {
  BlockPart,
  CallSettings,
  JSONInput,
  ProviderMetadata,
  ReasoningContent,
  ReasoningPart,
  ResponseMetadata,
  Source,
  TextContent,
  TextPart,
  ToolApprovalRequest,
  ToolApprovalResponsePart,
  ToolCall,
  ToolCallPart,
  ToolInputPart,
  ToolResult,
  Usage,
  WithMetadata,
  WithOptions,
} from "./spec-v3.js";

// The call.

/** A file by its bytes or base64 text, or by URL. */
export type V4InlineFileData =
  | { type: "data"; data: Uint8Array | string }
  | { type: "url"; url: URL; originalUrl?: string };
/** A file's content: inline, by URL, by a provider's reference to an uploaded file, or as text. */
export type V4FileData =
  | V4InlineFileData
  | { type: "reference"; reference: Record<string, string> & { type?: never } }
  | { type: "text"; text: string };

/** A file in the prompt. */
export type V4FilePart = { type: "file"; filename?: string; data: V4FileData; mediaType: string } & WithOptions;
type V4ReasoningFilePart = { type: "reasoning-file"; data: V4InlineFileData; mediaType: string } & WithOptions;
type V4CustomPart = { type: "custom"; kind: `${string}.${string}` } & WithOptions;

/** An item of a tool result's `content` output. */
export type V4ToolResultContentItem = (
  | { type: "text"; text: string }
  | { type: "file"; data: V4FileData; mediaType: string; filename?: string }
  | { type: "custom" }
) &
  WithOptions;

/** What a tool gave back, in the prompt. */
export type V4ToolResultOutput = (
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: JSONInput }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: V4ToolResultContentItem[] }
) &
  WithOptions;

/** A tool's result in the prompt. */
export type V4ToolResultPart = {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: V4ToolResultOutput;
} & WithOptions;

/** One message of the prompt. */
export type V4Message = (
  | { role: "system"; content: string }
  | { role: "user"; content: Array<TextPart | V4FilePart> }
  | {
      role: "assistant";
      content: Array<
        TextPart | V4FilePart | V4CustomPart | ReasoningPart | V4ReasoningFilePart | ToolCallPart | V4ToolResultPart
      >;
    }
  | { role: "tool"; content: Array<V4ToolResultPart | ToolApprovalResponsePart> }
) &
  WithOptions;
/** The prompt: the conversation so far. */
export type V4Prompt = V4Message[];

/** The call of `doGenerate` and `doStream`. */
export type LanguageModelV4CallOptions = CallSettings & {
  prompt: V4Prompt;
  /** How hard a reasoning model thinks (vLLM's `reasoning_effort`). */
  reasoning?: "provider-default" | "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
};

// The reply.

/** A note on a setting or part of the call the model could not honour. */
export type V4Warning =
  | { type: "unsupported" | "compatibility"; feature: string; details?: string }
  | { type: "deprecated"; setting: string; message: string }
  | { type: "other"; message: string };

/** Why the reply ended: the specification's reason, and the server's own as `raw`. */
export type V4FinishReason = {
  unified: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "interrupted" | "other";
  raw: string | undefined;
};

type V4Citation = { source: Source; startIndex?: number; endIndex?: number; citedText?: string };
type V4Text = TextContent & { citations?: V4Citation[] };
type V4Custom = { type: "custom"; kind: `${string}.${string}` } & WithMetadata;
type V4File = { type: "file" | "reasoning-file"; mediaType: string; data: V4InlineFileData } & WithMetadata;

/** A part of a generated reply. */
export type V4Content =
  | V4Text
  | ReasoningContent
  | V4Custom
  | V4File
  | ToolApprovalRequest
  | Source
  | ToolCall
  | ToolResult;

/** What `doGenerate` gives back. */
export type LanguageModelV4GenerateResult = {
  content: V4Content[];
  /** The JSON text of a structured output, when the provider has it apart from the content. */
  structuredOutputText?: string;
  finishReason: V4FinishReason;
  usage: Usage;
  providerMetadata?: ProviderMetadata;
  request?: { url?: string; body?: unknown };
  response?: ResponseMetadata & { headers?: Record<string, string>; body?: unknown };
  warnings: V4Warning[];
};

/** A part of a streamed reply. */
export type V4StreamPart =
  | BlockPart<"text">
  | ({ type: "text-end"; id: string; citations?: V4Citation[] } & WithMetadata)
  | BlockPart<"reasoning">
  | ToolInputPart
  | ToolApprovalRequest
  | ToolCall
  | ToolResult
  | V4Custom
  | V4File
  | Source
  | { type: "stream-start"; warnings: V4Warning[] }
  | ({ type: "response-metadata" } & ResponseMetadata)
  | ({ type: "finish"; usage: Usage; finishReason: V4FinishReason } & WithMetadata)
  | { type: "ping" }
  | { type: "raw"; rawValue: unknown }
  | { type: "error"; error: unknown };

/** What `doStream` gives back. */
export type LanguageModelV4StreamResult = {
  stream: ReadableStream<V4StreamPart>;
  request?: { url?: string; body?: unknown };
  response?: { headers?: Record<string, string> };
};

/** A language model of specification v4. */
export interface LanguageModelV4 {
  readonly specificationVersion: "v4";
  readonly provider: string;
  readonly modelId: string;
  /** Media types (`image/*`) with the URL patterns the model takes as they are. */
  supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doGenerate(options: LanguageModelV4CallOptions): PromiseLike<LanguageModelV4GenerateResult>;
  doStream(options: LanguageModelV4CallOptions): PromiseLike<LanguageModelV4StreamResult>;
}

/**
 * A provider of specification v4 that makes language models only: its other kinds of model
 * throw, so a registry that asks for one gets the error.
 */
export interface ProviderV4 {
  readonly specificationVersion: "v4";
  languageModel(modelId: string): LanguageModelV4;
  embeddingModel(modelId: string): never;
  imageModel(modelId: string): never;
}
