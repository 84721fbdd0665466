/**
 * Named types of the content parts a chat message may carry. Exact: no index signature, so a
 * misspelt key in an object literal is a compile error. (At run time unknown keys are still
 * sent: servers add fields to content parts.)
 *
 * @module
 */
import type { ChatCompletionContentPartUntyped } from "./content-part-untyped.js";

export type { ChatCompletionContentPartUntyped, UntypedPartURL } from "./content-part-untyped.js";

/**
 * A text content part.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartText = { type: "text", text: "What is in this image?" };
 * ```
 */
export interface ChatCompletionContentPartText {
  /** Always `"text"`. */
  type: "text";
  /** The text. */
  text: string;
}

/**
 * An image content part, by URL or `data:` URL.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartImage = {
 *   type: "image_url",
 *   image_url: { url: "https://example.com/cat.png", detail: "low" },
 * };
 * ```
 */
export interface ChatCompletionContentPartImage {
  /** Always `"image_url"`. */
  type: "image_url";
  /** Where the image is: an object with the URL, or the URL itself (vLLM accepts both). */
  image_url:
    | {
        /** An `https:` URL, or a `data:image/...;base64,` URL with the image inline. */
        url: string;
        /** Resolution hint: `"low"`, `"high"` or `"auto"` (OpenAI's values; vLLM ignores it). */
        detail?: "auto" | "low" | "high";
      }
    | string;
}

/**
 * An inline audio content part (base64 data).
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartInputAudio = { type: "input_audio", input_audio: { data: "UklGR...", format: "wav" } };
 * ```
 */
export interface ChatCompletionContentPartInputAudio {
  /** Always `"input_audio"`. */
  type: "input_audio";
  /** The audio itself. */
  input_audio: {
    /** Base64-encoded audio bytes. */
    data: string;
    /** Encoding of `data`, such as `"wav"` or `"mp3"` (vLLM reads any, as `audio/<format>`). */
    format: string;
  };
}

/**
 * An audio content part by URL (vLLM extension).
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartAudioUrl = { type: "audio_url", audio_url: { url: "https://example.com/a.wav" } };
 * ```
 */
export interface ChatCompletionContentPartAudioUrl {
  /** Always `"audio_url"`. */
  type: "audio_url";
  /** Where the audio is. */
  audio_url: {
    /** An `https:` URL, or a `data:audio/...;base64,` URL with the audio inline. */
    url: string;
  };
}

/**
 * A video content part by URL (vLLM extension).
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartVideoUrl = { type: "video_url", video_url: { url: "https://example.com/clip.mp4" } };
 * ```
 */
export interface ChatCompletionContentPartVideoUrl {
  /** Always `"video_url"`. */
  type: "video_url";
  /** Where the video is. */
  video_url: {
    /** An `https:` URL, or a `data:video/...;base64,` URL with the video inline. */
    url: string;
  };
}

/**
 * A file content part: inline data, an uploaded file id, or both.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartFile = {
 *   type: "file",
 *   file: { file_data: "data:application/pdf;base64,JVBER...", filename: "a.pdf" },
 * };
 * ```
 */
export interface ChatCompletionContentPartFile {
  /** Always `"file"`. */
  type: "file";
  /** The file, inline or by id. */
  file: {
    /** The file's bytes as a base64 `data:` URL. */
    file_data?: string;
    /** Id of a file uploaded beforehand. */
    file_id?: string;
    /** File name shown to the model. */
    filename?: string;
  };
}

/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartImageEmbeds = { type: "image_embeds", image_embeds: "k05VTVBZ..." };
 * ```
 */
export interface ChatCompletionContentPartImageEmbeds {
  /** Always `"image_embeds"`. */
  type: "image_embeds";
  /** A base64-encoded tensor, or named tensors for models that take several inputs per image. */
  image_embeds: string | Record<string, string> | null;
}

/**
 * Precomputed audio embeddings (vLLM extension): a base64 tensor or a map of them.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartAudioEmbeds = { type: "audio_embeds", audio_embeds: "k05VTVBZ..." };
 * ```
 */
export interface ChatCompletionContentPartAudioEmbeds {
  /** Always `"audio_embeds"`. */
  type: "audio_embeds";
  /** A base64-encoded tensor, or named tensors; null when a `uuid` names cached audio. */
  audio_embeds: string | Record<string, string> | null;
}

/**
 * Precomputed prompt embeddings spliced into the prompt (vLLM extension; the server needs
 * `--enable-prompt-embeds`).
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartPromptEmbeds = { type: "prompt_embeds", data: "k05VTVBZ..." };
 * ```
 */
export interface ChatCompletionContentPartPromptEmbeds {
  /** Always `"prompt_embeds"`. */
  type: "prompt_embeds";
  /** Base64 bytes of a serialized tensor of shape (tokens, hidden size). */
  data: string;
}

/**
 * A thinking content part (vLLM extension): reasoning replayed to templates that render it.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartThinking = { type: "thinking", thinking: "The user wants a number.", closed: true };
 * ```
 */
export interface ChatCompletionContentPartThinking {
  /** Always `"thinking"`. */
  type: "thinking";
  /** The reasoning text. */
  thinking: string;
  /** Whether the reasoning is finished. */
  closed?: boolean;
}

/**
 * A refusal content part (assistant messages only).
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPartRefusal = { type: "refusal", refusal: "I can't help with that." };
 * ```
 */
export interface ChatCompletionContentPartRefusal {
  /** Always `"refusal"`. */
  type: "refusal";
  /** The refusal message the model wrote. */
  refusal: string;
}

/**
 * Any content part of a user message, told apart by `type`.
 *
 * @example
 * ```ts
 * const part: ChatCompletionContentPart = { type: "text", text: "Hi" };
 * ```
 */
export type ChatCompletionContentPart =
  | ChatCompletionContentPartText
  | ChatCompletionContentPartImage
  | ChatCompletionContentPartInputAudio
  | ChatCompletionContentPartAudioUrl
  | ChatCompletionContentPartVideoUrl
  | ChatCompletionContentPartFile
  | ChatCompletionContentPartImageEmbeds
  | ChatCompletionContentPartAudioEmbeds
  | ChatCompletionContentPartPromptEmbeds;

/**
 * A content part of an assistant message: any part (vLLM takes images and thinking on
 * assistant turns too); text, refusal and thinking are the usual ones.
 *
 * @example
 * ```ts
 * const part: ChatCompletionAssistantContentPart = { type: "text", text: "Sure." };
 * ```
 */
export type ChatCompletionAssistantContentPart = ChatCompletionAnyContentPart;

/**
 * Any content part at all, refusals and thinking included. vLLM takes every part on every role
 * (its free-form message accepts any part), so every message kind's content is built on it.
 *
 * @example
 * ```ts
 * const part: ChatCompletionAnyContentPart = { type: "refusal", refusal: "No." };
 * ```
 */
export type ChatCompletionAnyContentPart =
  | ChatCompletionContentPart
  | ChatCompletionContentPartRefusal
  | ChatCompletionContentPartThinking
  | ChatCompletionContentPartUntyped;
