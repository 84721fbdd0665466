import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FilePart,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";
import { promptError } from "./errors.js";
import type {
  LanguageModelV3CallOptions,
  V3FilePart as LanguageModelV3FilePart,
  V3Prompt as LanguageModelV3Prompt,
  V3ToolResultPart as LanguageModelV3ToolResultPart,
} from "./spec-v3.js";

// A v3 call differs from a v4 call in how files are given (bytes, base64 text or a URL, where v4
// tags each form) and in a tool result's content parts (v3 has a kind per form: `file-data`,
// `image-url`, ...); v4 adds settings v3 lacks (`reasoning`), which stay unset. Nothing else
// changes, so a v3 call is brought to the v4 shape here and goes through the one implementation.

type FileDataV3 = LanguageModelV3FilePart["data"];
type FileDataV4 = LanguageModelV4FilePart["data"];

function fileData(data: FileDataV3): FileDataV4 {
  if (data instanceof URL) return { type: "url", url: data };
  if (typeof data === "string" || data instanceof Uint8Array) return { type: "data", data };
  // `ai` 7 hands a v3 model a v4 file it has no v3 form for (a provider reference, text) as it is.
  return data as FileDataV4;
}

function file(part: LanguageModelV3FilePart): LanguageModelV4FilePart {
  return { ...part, data: fileData(part.data) };
}

type ContentV3 = Extract<LanguageModelV3ToolResultPart["output"], { type: "content" }>["value"][number];
type ContentV4 = Extract<LanguageModelV4ToolResultOutput, { type: "content" }>["value"][number];

function toolResultURL(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw promptError("prompt (tool result)", `"${url}" is not a URL: give the file's bytes or a full URL`);
  }
}

function toolContent(item: ContentV3): ContentV4 {
  const options = item.providerOptions !== undefined ? { providerOptions: item.providerOptions } : {};
  switch (item.type) {
    case "file-data":
      return {
        type: "file",
        data: { type: "data", data: item.data },
        mediaType: item.mediaType,
        ...(item.filename !== undefined ? { filename: item.filename } : {}),
        ...options,
      };
    case "image-data":
      return { type: "file", data: { type: "data", data: item.data }, mediaType: item.mediaType, ...options };
    case "file-url":
    case "image-url":
      return {
        type: "file",
        data: { type: "url", url: toolResultURL(item.url) },
        mediaType: item.type === "image-url" ? "image/*" : "application/octet-stream",
        ...options,
      };
    case "file-id":
    case "image-file-id":
      return {
        type: "file",
        data: { type: "reference", reference: typeof item.fileId === "string" ? { id: item.fileId } : item.fileId },
        mediaType: item.type === "image-file-id" ? "image/*" : "application/octet-stream",
        ...options,
      };
    default:
      return item;
  }
}

function toolResult(part: LanguageModelV3ToolResultPart): LanguageModelV4ToolResultPart {
  const output = part.output;
  return output.type === "content"
    ? { ...part, output: { ...output, value: output.value.map(toolContent) } }
    : { ...part, output };
}

function prompt(messages: LanguageModelV3Prompt): LanguageModelV4Prompt {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
        return message;
      case "user":
        return { ...message, content: message.content.map((p) => (p.type === "file" ? file(p) : p)) };
      case "assistant":
        return {
          ...message,
          content: message.content.map((p) =>
            p.type === "file" ? file(p) : p.type === "tool-result" ? toolResult(p) : p,
          ),
        };
      case "tool":
        return { ...message, content: message.content.map((p) => (p.type === "tool-result" ? toolResult(p) : p)) };
    }
  });
}

/** A call of specification v3 in the shape of v4, which the one implementation takes. */
export function callFromV3(call: LanguageModelV3CallOptions): LanguageModelV4CallOptions {
  return { ...call, prompt: prompt(call.prompt) };
}
