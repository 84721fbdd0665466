/**
 * Zod schemas for the content parts of chat messages: text, image, audio, video, file,
 * image embeddings and refusal, and the unions of them that user and assistant messages take.
 * Loose objects (unknown keys are kept, since servers add fields); see `request-schema.ts`
 * for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { taggedUnion } from "../tagged-union.js";
import { withUntypedForms } from "./content-part-untyped.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type {
  ChatCompletionAnyContentPart,
  ChatCompletionAssistantContentPart,
  ChatCompletionContentPart,
  ChatCompletionContentPartAudioEmbeds,
  ChatCompletionContentPartPromptEmbeds,
  ChatCompletionContentPartThinking,
  ChatCompletionContentPartAudioUrl,
  ChatCompletionContentPartFile,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartImageEmbeds,
  ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartRefusal,
  ChatCompletionContentPartText,
  ChatCompletionContentPartVideoUrl,
} from "./content-part-types.js";

export type * from "./content-part-types.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

const textPart = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
});
/**
 * A text content part.
 * @example
 * chatCompletionContentPartTextSchema.parse({ type: "text", text: "Hello" });
 */
export const chatCompletionContentPartTextSchema: SchemaOf<ChatCompletionContentPartText> = textPart;

const imagePart = z.looseObject({
  type: z.literal("image_url"),
  // OpenAI's detail values (vLLM's image parser holds them to these); vLLM also takes the URL
  // itself as a string.
  image_url: z.union([
    z.looseObject({
      url: z.string(),
      detail: z.optional(z.enum(["auto", "low", "high"])),
    }),
    z.string(),
  ]),
});
/**
 * An image content part, by URL or `data:` URL.
 * @example
 * chatCompletionContentPartImageSchema.parse({
 *   type: "image_url",
 *   image_url: { url: "https://example.com/cat.png", detail: "low" },
 * });
 */
export const chatCompletionContentPartImageSchema: SchemaOf<ChatCompletionContentPartImage> = imagePart;

const inputAudioPart = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({
    data: z.string(),
    // vLLM's input_audio parser reads any format into a data URL (audio/<format>).
    format: z.string(),
  }),
});
/**
 * An inline audio content part (base64 data).
 * @example
 * chatCompletionContentPartInputAudioSchema.parse({
 *   type: "input_audio",
 *   input_audio: { data: "UklGR...", format: "wav" },
 * });
 */
export const chatCompletionContentPartInputAudioSchema: SchemaOf<ChatCompletionContentPartInputAudio> = inputAudioPart;

const audioUrlPart = z.looseObject({
  type: z.literal("audio_url"),
  audio_url: z.looseObject({ url: z.string() }),
});
/**
 * An audio content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartAudioUrlSchema.parse({
 *   type: "audio_url",
 *   audio_url: { url: "https://example.com/a.wav" },
 * });
 */
export const chatCompletionContentPartAudioUrlSchema: SchemaOf<ChatCompletionContentPartAudioUrl> = audioUrlPart;

const videoUrlPart = z.looseObject({
  type: z.literal("video_url"),
  video_url: z.looseObject({ url: z.string() }),
});
/**
 * A video content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartVideoUrlSchema.parse({
 *   type: "video_url",
 *   video_url: { url: "https://example.com/clip.mp4" },
 * });
 */
export const chatCompletionContentPartVideoUrlSchema: SchemaOf<ChatCompletionContentPartVideoUrl> = videoUrlPart;

const filePart = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.optional(z.string()),
    file_id: z.optional(z.string()),
    filename: z.optional(z.string()),
  }),
});
/**
 * A file content part: inline data, an uploaded file id, or both.
 * @example
 * chatCompletionContentPartFileSchema.parse({
 *   type: "file",
 *   file: { file_data: "data:application/pdf;base64,JVBER...", filename: "a.pdf" },
 * });
 */
export const chatCompletionContentPartFileSchema: SchemaOf<ChatCompletionContentPartFile> = filePart;

const imageEmbedsPart = z.looseObject({
  type: z.literal("image_embeds"),
  // null with a `uuid`: media vLLM has cached under that id.
  image_embeds: z.nullable(z.union([z.string(), z.record(z.string(), z.string())])),
});
/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 * @example
 * chatCompletionContentPartImageEmbedsSchema.parse({ type: "image_embeds", image_embeds: "k05VTVBZ..." });
 */
export const chatCompletionContentPartImageEmbedsSchema: SchemaOf<ChatCompletionContentPartImageEmbeds> =
  imageEmbedsPart;

const audioEmbedsPart = z.looseObject({
  type: z.literal("audio_embeds"),
  audio_embeds: z.nullable(z.union([z.string(), z.record(z.string(), z.string())])),
});

const promptEmbedsPart = z.looseObject({
  type: z.literal("prompt_embeds"),
  data: z.string(),
});

const thinkingPart = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  closed: z.optional(z.boolean()),
});

const refusalPart = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});
/**
 * A refusal content part (assistant messages only).
 * @example
 * chatCompletionContentPartRefusalSchema.parse({ type: "refusal", refusal: "I can't help with that." });
 */
export const chatCompletionContentPartRefusalSchema: SchemaOf<ChatCompletionContentPartRefusal> = refusalPart;

// The parts a user message may carry (mini unions have no `.options` to spread, so the list
// is kept here for the unions below).
const userContentParts = [
  textPart,
  imagePart,
  inputAudioPart,
  audioUrlPart,
  videoUrlPart,
  filePart,
  imageEmbedsPart,
  audioEmbedsPart,
  promptEmbedsPart,
] as const;

const userPart = taggedUnion("type", userContentParts);
/**
 * Any content part a user message may carry; an unknown `type` is refused.
 * @example
 * chatCompletionContentPartSchema.parse({ type: "text", text: "What is in this image?" });
 */
export const chatCompletionContentPartSchema: SchemaOf<ChatCompletionContentPart> = userPart;

// vLLM also reads parts written without `type` by the key they hold (content-part-untyped.ts).
const anyPart = withUntypedForms(taggedUnion("type", [...userContentParts, refusalPart, thinkingPart]));
/**
 * Any content part at all, refusals and thinking included: vLLM takes every part on every role,
 * and the short forms without `type` (`{image_url: "https://..."}`).
 * @example
 * chatCompletionAnyContentPartSchema.parse({ type: "refusal", refusal: "No." });
 */
export const chatCompletionAnyContentPartSchema: SchemaOf<ChatCompletionAnyContentPart> = anyPart;

const assistantPart = anyPart;
/**
 * A content part of an assistant message: any part (text, refusal and thinking are the usual ones).
 * @example
 * chatCompletionAssistantContentPartSchema.parse({ type: "refusal", refusal: "No." });
 */
export const chatCompletionAssistantContentPartSchema: SchemaOf<ChatCompletionAssistantContentPart> = assistantPart;

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof textPart>, ChatCompletionContentPartText>,
    Agrees<z.input<typeof imagePart>, ChatCompletionContentPartImage>,
    Agrees<z.input<typeof inputAudioPart>, ChatCompletionContentPartInputAudio>,
    Agrees<z.input<typeof audioUrlPart>, ChatCompletionContentPartAudioUrl>,
    Agrees<z.input<typeof videoUrlPart>, ChatCompletionContentPartVideoUrl>,
    Agrees<z.input<typeof filePart>, ChatCompletionContentPartFile>,
    Agrees<z.input<typeof imageEmbedsPart>, ChatCompletionContentPartImageEmbeds>,
    Agrees<z.input<typeof refusalPart>, ChatCompletionContentPartRefusal>,
    Agrees<z.input<typeof audioEmbedsPart>, ChatCompletionContentPartAudioEmbeds>,
    Agrees<z.input<typeof promptEmbedsPart>, ChatCompletionContentPartPromptEmbeds>,
    Agrees<z.input<typeof thinkingPart>, ChatCompletionContentPartThinking>,
    Agrees<z.input<typeof userPart>, ChatCompletionContentPart>,
    Agrees<z.input<typeof assistantPart>, ChatCompletionAssistantContentPart>,
    Agrees<z.input<typeof anyPart>, ChatCompletionAnyContentPart>,
  ]
>;
