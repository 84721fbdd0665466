import type { LanguageModelV4FilePart, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import type {
  ChatCompletionAnyContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCallParam,
} from "../index.js";
import { promptError } from "./errors.js";
import type { Warning } from "./spec.js";

type FileData = LanguageModelV4FilePart["data"];

/** Base64 of bytes without Buffer (the entry runs in browsers and workers too). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

/** The text of a text file's bytes (given as base64 or as bytes). */
function utf8(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) : data;
  return new TextDecoder().decode(bytes);
}

/** A URL vLLM can fetch itself, or the bytes inline as a `data:` URL. */
function fileURL(data: FileData, mediaType: string, path: string): string {
  switch (data.type) {
    case "url":
      return data.url.toString();
    case "data":
      return `data:${mediaType};base64,${typeof data.data === "string" ? data.data : base64(data.data)}`;
    case "text":
      return `data:${mediaType};base64,${base64(new TextEncoder().encode(data.text))}`;
    default:
      // A provider reference names a file uploaded to another provider: vLLM has no such store.
      throw promptError(path, "a file given by provider reference cannot be sent to vLLM: pass its bytes or a URL");
  }
}

function inlineBase64(data: FileData, path: string): string {
  if (data.type === "data") return typeof data.data === "string" ? data.data : base64(data.data);
  if (data.type === "text") return base64(new TextEncoder().encode(data.text));
  throw promptError(path, "audio as input_audio needs its bytes (wav or mp3), not a URL or a reference");
}

/** A user file part as the content part vLLM takes for its media type. */
function filePart(part: LanguageModelV4FilePart, path: string): ChatCompletionAnyContentPart {
  const type = part.mediaType.toLowerCase();
  if (type.startsWith("text/") && (part.data.type === "text" || part.data.type === "data"))
    return { type: "text", text: part.data.type === "text" ? part.data.text : utf8(part.data.data) };
  if (type.startsWith("image/")) {
    const mediaType = type === "image/*" ? "image/jpeg" : part.mediaType;
    return { type: "image_url", image_url: { url: fileURL(part.data, mediaType, path) } };
  }
  if (type.startsWith("audio/")) {
    const format =
      type === "audio/wav" || type === "audio/x-wav"
        ? "wav"
        : type === "audio/mpeg" || type === "audio/mp3"
          ? "mp3"
          : undefined;
    if (format !== undefined && part.data.type !== "url")
      return { type: "input_audio", input_audio: { data: inlineBase64(part.data, path), format } };
    return { type: "audio_url", audio_url: { url: fileURL(part.data, part.mediaType, path) } };
  }
  if (type.startsWith("video/"))
    return { type: "video_url", video_url: { url: fileURL(part.data, part.mediaType, path) } };
  // vLLM's chat endpoint has no file part (it refuses OpenAI's `file` part when it renders).
  throw promptError(
    path,
    `a ${part.mediaType} file cannot be sent to vLLM, whose chat endpoint takes no file part: send the document's text as a text part (images, audio and video go as their own parts)`,
  );
}

function toolOutputText(output: LanguageModelV4ToolResultOutput): string | ChatCompletionAnyContentPart[] {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "Tool execution denied.";
    case "content": {
      const parts: ChatCompletionAnyContentPart[] = [];
      for (const item of output.value) {
        if (item.type === "text") parts.push({ type: "text", text: item.text });
        else if (item.type === "file") parts.push(filePart({ ...item, type: "file" }, "prompt (tool result)"));
      }
      return parts;
    }
  }
}

/**
 * The AI SDK's prompt as chat messages. Reasoning of earlier assistant turns goes back as
 * `reasoning` (vLLM's current name), tool calls with their arguments as JSON text.
 */
export function convertPrompt(prompt: LanguageModelV4Prompt, warnings: Warning[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  prompt.forEach((message, m) => {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content });
        return;
      case "user": {
        const only = message.content.length === 1 ? message.content[0] : undefined;
        if (only?.type === "text") {
          messages.push({ role: "user", content: only.text });
          return;
        }
        messages.push({
          role: "user",
          content: message.content.map((part, p) =>
            part.type === "text" ? { type: "text", text: part.text } : filePart(part, `prompt.${m}.content.${p}`),
          ),
        });
        return;
      }
      case "assistant": {
        let text = "";
        let reasoning = "";
        const toolCalls: ChatCompletionMessageToolCallParam[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "reasoning") reasoning += part.text;
          else if (part.type === "tool-call")
            toolCalls.push({
              id: part.toolCallId,
              type: "function",
              function: {
                name: part.toolName,
                arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {}),
              },
            });
          else if (part.type === "file" || part.type === "reasoning-file")
            warnings.push({
              type: "unsupported",
              feature: `assistant ${part.type} parts`,
              details: "not sent to vLLM",
            });
        }
        messages.push({
          role: "assistant",
          content: text.length > 0 || toolCalls.length === 0 ? text : null,
          ...(reasoning.length > 0 ? { reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        });
        return;
      }
      case "tool":
        for (const part of message.content) {
          // Approval responses are settled by the AI SDK before the call; vLLM has no such message.
          if (part.type !== "tool-result") continue;
          messages.push({ role: "tool", tool_call_id: part.toolCallId, content: toolOutputText(part.output) });
        }
        return;
    }
  });
  return messages;
}
