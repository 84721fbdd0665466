/**
 * Zod schemas for the content parts of chat messages: text, image, audio, video, file,
 * image embeddings and refusal, and the unions of them that user and assistant messages take.
 * Loose objects (unknown keys are kept, since servers add fields); see `request-schema.ts`
 * for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

/**
 * A text content part.
 * @example
 * chatCompletionContentPartTextSchema.parse({ type: "text", text: "Hello" });
 */
export const chatCompletionContentPartTextSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
});
/**
 * A content part text of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartText = { type: "text", text: "Hi" };
 */
export type ChatCompletionContentPartText = z.input<typeof chatCompletionContentPartTextSchema>;

/**
 * An image content part, by URL or `data:` URL.
 * @example
 * chatCompletionContentPartImageSchema.parse({
 *   type: "image_url",
 *   image_url: { url: "https://example.com/cat.png", detail: "low" },
 * });
 */
export const chatCompletionContentPartImageSchema = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({
    url: z.string(),
    detail: z.optional(z.string()),
  }),
});
/**
 * A content part image of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartImage = { type: "image_url", image_url: { url: "https://x/y.png" } };
 */
export type ChatCompletionContentPartImage = z.input<typeof chatCompletionContentPartImageSchema>;

/**
 * An inline audio content part (base64 data).
 * @example
 * chatCompletionContentPartInputAudioSchema.parse({
 *   type: "input_audio",
 *   input_audio: { data: "UklGR...", format: "wav" },
 * });
 */
export const chatCompletionContentPartInputAudioSchema = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({
    data: z.string(),
    format: z.string(),
  }),
});
/**
 * A content part input audio of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartInputAudio = { type: "input_audio", input_audio: { data: "...", format: "wav" } };
 */
export type ChatCompletionContentPartInputAudio = z.input<typeof chatCompletionContentPartInputAudioSchema>;

/**
 * An audio content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartAudioUrlSchema.parse({
 *   type: "audio_url",
 *   audio_url: { url: "https://example.com/a.wav" },
 * });
 */
export const chatCompletionContentPartAudioUrlSchema = z.looseObject({
  type: z.literal("audio_url"),
  audio_url: z.looseObject({ url: z.string() }),
});
/**
 * A content part audio url of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartAudioUrl = { type: "audio_url", audio_url: { url: "https://x/a.wav" } };
 */
export type ChatCompletionContentPartAudioUrl = z.input<typeof chatCompletionContentPartAudioUrlSchema>;

/**
 * A video content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartVideoUrlSchema.parse({
 *   type: "video_url",
 *   video_url: { url: "https://example.com/clip.mp4" },
 * });
 */
export const chatCompletionContentPartVideoUrlSchema = z.looseObject({
  type: z.literal("video_url"),
  video_url: z.looseObject({ url: z.string() }),
});
/**
 * A content part video url of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartVideoUrl = { type: "video_url", video_url: { url: "https://x/v.mp4" } };
 */
export type ChatCompletionContentPartVideoUrl = z.input<typeof chatCompletionContentPartVideoUrlSchema>;

/**
 * A file content part: inline data, an uploaded file id, or both.
 * @example
 * chatCompletionContentPartFileSchema.parse({
 *   type: "file",
 *   file: { file_data: "data:application/pdf;base64,JVBER...", filename: "a.pdf" },
 * });
 */
export const chatCompletionContentPartFileSchema = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.optional(z.string()),
    file_id: z.optional(z.string()),
    filename: z.optional(z.string()),
  }),
});
/**
 * A content part file of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartFile = { type: "file", file: { file_id: "file-1" } };
 */
export type ChatCompletionContentPartFile = z.input<typeof chatCompletionContentPartFileSchema>;

/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 * @example
 * chatCompletionContentPartImageEmbedsSchema.parse({ type: "image_embeds", image_embeds: "k05VTVBZ..." });
 */
export const chatCompletionContentPartImageEmbedsSchema = z.looseObject({
  type: z.literal("image_embeds"),
  image_embeds: z.union([z.string(), z.record(z.string(), z.string())]),
});
/**
 * A content part image embeds of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartImageEmbeds = { type: "image_embeds", image_embeds: "k05VTVBZ..." };
 */
export type ChatCompletionContentPartImageEmbeds = z.input<typeof chatCompletionContentPartImageEmbedsSchema>;

/**
 * A refusal content part (assistant messages only).
 * @example
 * chatCompletionContentPartRefusalSchema.parse({ type: "refusal", refusal: "I can't help with that." });
 */
export const chatCompletionContentPartRefusalSchema = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});
/**
 * A content part refusal of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartRefusal = { type: "refusal", refusal: "No." };
 */
export type ChatCompletionContentPartRefusal = z.input<typeof chatCompletionContentPartRefusalSchema>;

// The parts a user message may carry (mini unions have no `.options` to spread, so the list
// is kept here for the unions below).
const userContentParts = [
  chatCompletionContentPartTextSchema,
  chatCompletionContentPartImageSchema,
  chatCompletionContentPartInputAudioSchema,
  chatCompletionContentPartAudioUrlSchema,
  chatCompletionContentPartVideoUrlSchema,
  chatCompletionContentPartFileSchema,
  chatCompletionContentPartImageEmbedsSchema,
] as const;

/**
 * Any content part a user message may carry; an unknown `type` is refused.
 * @example
 * chatCompletionContentPartSchema.parse({ type: "text", text: "What is in this image?" });
 */
export const chatCompletionContentPartSchema = taggedUnion("type", userContentParts);
/** Any content part of a user message. @example const p: ChatCompletionContentPart = { type: "text", text: "Hi" }; */
export type ChatCompletionContentPart = z.input<typeof chatCompletionContentPartSchema>;

/**
 * A content part of an assistant message: text or refusal.
 * @example
 * chatCompletionAssistantContentPartSchema.parse({ type: "refusal", refusal: "No." });
 */
export const chatCompletionAssistantContentPartSchema = taggedUnion("type", [
  chatCompletionContentPartTextSchema,
  chatCompletionContentPartRefusalSchema,
]);
/**
 * A assistant content part of a chat completion request.
 *
 * @example
 * const p: ChatCompletionAssistantContentPart = { type: "text", text: "Sure." };
 */
export type ChatCompletionAssistantContentPart = z.input<typeof chatCompletionAssistantContentPartSchema>;

/**
 * Any content part at all, refusals included: what custom and generic messages may carry.
 * @example
 * chatCompletionAnyContentPartSchema.parse({ type: "refusal", refusal: "No." });
 */
export const chatCompletionAnyContentPartSchema = taggedUnion("type", [
  ...userContentParts,
  chatCompletionContentPartRefusalSchema,
]);
/**
 * Any content part at all, refusals included.
 *
 * @example
 * const p: ChatCompletionAnyContentPart = { type: "refusal", refusal: "No." };
 */
export type ChatCompletionAnyContentPart = z.input<typeof chatCompletionAnyContentPartSchema>;
