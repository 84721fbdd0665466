/**
 * Zod schemas for the content parts of chat messages: text, image, audio, video, file,
 * image embeddings and refusal, and the unions of them that user and assistant messages take.
 * Loose objects (unknown keys are kept, since servers add fields); see `request-schema.ts`
 * for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import { type Fields, looseObject, type SchemaOf } from "../request-shapes.js";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { type ChatCompletionContentPartUntyped, withUntypedForms } from "./content-part-untyped.js";

export type { ChatCompletionContentPartUntyped, UntypedPartURL } from "./content-part-untyped.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();
const textPart = looseObject({
  /** Always `"text"`. */
  type: z.literal("text"),
  /** The text. */
  text: z.string(),
});
/**
 * A text content part.
 */
export interface ChatCompletionContentPartText extends Fields<typeof textPart.shape> {}

/**
 * A text content part.
 */
export const chatCompletionContentPartTextSchema: SchemaOf<ChatCompletionContentPartText> = textPart;
const imagePart = looseObject({
  /** Always `"image_url"`. */
  type: z.literal("image_url"),
  // OpenAI's detail values (vLLM's image parser holds them to these); vLLM also takes the URL
  // itself as a string.
  /** Where the image is: an object with the URL, or the URL itself (vLLM accepts both). */
  image_url: z.union([
    looseObject({
      /** An `https:` URL, or a `data:image/...;base64,` URL with the image inline. */
      url: z.string(),
      /** Resolution hint: `"low"`, `"high"` or `"auto"` (OpenAI's values; vLLM ignores it). */
      detail: z.optional(z.enum(["auto", "low", "high"])),
    }),
    z.string(),
  ]),
});
/**
 * An image content part, by URL or `data:` URL.
 */
export interface ChatCompletionContentPartImage extends Fields<typeof imagePart.shape> {}

/**
 * An image content part, by URL or `data:` URL.
 */
export const chatCompletionContentPartImageSchema: SchemaOf<ChatCompletionContentPartImage> = imagePart;
const inputAudioPart = looseObject({
  /** Always `"input_audio"`. */
  type: z.literal("input_audio"),
  /** The audio itself. */
  input_audio: looseObject({
    /** Base64-encoded audio bytes. */
    data: z.string(),
    /**
     * Encoding of `data`: `"wav"` or `"mp3"` (OpenAI's `InputAudio.format`, which vLLM holds
     * these roles to; a custom-role message takes any format, see {@link ChatCompletionCustomContentPart}).
     */
    format: z.enum(["wav", "mp3"], {
      error:
        'must be "wav" or "mp3" on this role (OpenAI\'s InputAudio.format); only a custom-role message takes other formats',
    }),
  }),
});
/**
 * An inline audio content part (base64 data).
 */
export interface ChatCompletionContentPartInputAudio extends Fields<typeof inputAudioPart.shape> {}

/**
 * An inline audio content part (base64 data).
 */
export const chatCompletionContentPartInputAudioSchema: SchemaOf<ChatCompletionContentPartInputAudio> = inputAudioPart;
const audioUrlPart = looseObject({
  /** Always `"audio_url"`. */
  type: z.literal("audio_url"),
  /** Where the audio is. */
  audio_url: looseObject({
    /** An `https:` URL, or a `data:audio/...;base64,` URL with the audio inline. */
    url: z.string(),
  }),
});
/**
 * An audio content part by URL (vLLM extension).
 */
export interface ChatCompletionContentPartAudioUrl extends Fields<typeof audioUrlPart.shape> {}

/**
 * An audio content part by URL (vLLM extension).
 */
export const chatCompletionContentPartAudioUrlSchema: SchemaOf<ChatCompletionContentPartAudioUrl> = audioUrlPart;
const videoUrlPart = looseObject({
  /** Always `"video_url"`. */
  type: z.literal("video_url"),
  /** Where the video is. */
  video_url: looseObject({
    /** An `https:` URL, or a `data:video/...;base64,` URL with the video inline. */
    url: z.string(),
  }),
});
/**
 * A video content part by URL (vLLM extension).
 */
export interface ChatCompletionContentPartVideoUrl extends Fields<typeof videoUrlPart.shape> {}

/**
 * A video content part by URL (vLLM extension).
 */
export const chatCompletionContentPartVideoUrlSchema: SchemaOf<ChatCompletionContentPartVideoUrl> = videoUrlPart;
const filePart = looseObject({
  /** Always `"file"`. */
  type: z.literal("file"),
  /** The file, inline or by id. */
  file: looseObject({
    /** The file's bytes as a base64 `data:` URL. */
    file_data: z.optional(z.string()),
    /** Id of a file uploaded beforehand. */
    file_id: z.optional(z.string()),
    /** File name shown to the model. */
    filename: z.optional(z.string()),
  }),
});
/**
 * A file content part: inline data, an uploaded file id, or both.
 */
export interface ChatCompletionContentPartFile extends Fields<typeof filePart.shape> {}

/**
 * A file content part: inline data, an uploaded file id, or both.
 */
export const chatCompletionContentPartFileSchema: SchemaOf<ChatCompletionContentPartFile> = filePart;
const imageEmbedsPart = looseObject({
  /** Always `"image_embeds"`. */
  type: z.literal("image_embeds"),
  /**
   * A base64-encoded tensor, or named tensors for models that take several inputs per image
   * (null with a `uuid`: media vLLM has cached under that id).
   */
  image_embeds: z.nullable(z.union([z.string(), z.record(z.string(), z.string())])),
});
/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 */
export interface ChatCompletionContentPartImageEmbeds extends Fields<typeof imageEmbedsPart.shape> {}

/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 */
export const chatCompletionContentPartImageEmbedsSchema: SchemaOf<ChatCompletionContentPartImageEmbeds> =
  imageEmbedsPart;
const audioEmbedsPart = looseObject({
  /** Always `"audio_embeds"`. */
  type: z.literal("audio_embeds"),
  /** A base64-encoded tensor, or named tensors; null when a `uuid` names cached audio. */
  audio_embeds: z.nullable(z.union([z.string(), z.record(z.string(), z.string())])),
});
/**
 * Precomputed audio embeddings (vLLM extension): a base64 tensor or a map of them.
 */
export interface ChatCompletionContentPartAudioEmbeds extends Fields<typeof audioEmbedsPart.shape> {}
const promptEmbedsPart = looseObject({
  /** Always `"prompt_embeds"`. */
  type: z.literal("prompt_embeds"),
  /** Base64 bytes of a serialized tensor of shape (tokens, hidden size). */
  data: z.string(),
});
/**
 * Precomputed prompt embeddings spliced into the prompt (vLLM extension; the server needs
 * `--enable-prompt-embeds`).
 */
export interface ChatCompletionContentPartPromptEmbeds extends Fields<typeof promptEmbedsPart.shape> {}
const thinkingPart = looseObject({
  /** Always `"thinking"`. */
  type: z.literal("thinking"),
  /** The reasoning text. */
  thinking: z.string(),
  /** Whether the reasoning is finished. */
  closed: z.optional(z.boolean()),
});
/**
 * A thinking content part (vLLM extension): reasoning replayed to templates that render it.
 */
export interface ChatCompletionContentPartThinking extends Fields<typeof thinkingPart.shape> {}
const refusalPart = looseObject({
  /** Always `"refusal"`. */
  type: z.literal("refusal"),
  /** The refusal message the model wrote. */
  refusal: z.string(),
});
/**
 * A refusal content part (assistant messages only).
 */
export interface ChatCompletionContentPartRefusal extends Fields<typeof refusalPart.shape> {}

/**
 * A refusal content part (assistant messages only).
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
 */
export const chatCompletionContentPartSchema: SchemaOf<ChatCompletionContentPart> = userPart;

// A custom-role message is vLLM's free-form message (chat_utils.CustomChatCompletionMessageParam):
// its parts are any of vLLM's part types, which end in `str` and include TypedDicts whose
// members are all optional, so a bare string or a part without `type` goes through as well,
// an input_audio of any format (or none), and a tool_reference part for the chat template.
const customInputAudioPart = looseObject({
  /** Always `"input_audio"`. */
  type: z.literal("input_audio"),
  /** The audio itself. */
  input_audio: looseObject({
    /** Base64-encoded audio bytes. */
    data: z.string(),
    /** Encoding of `data`; any (vLLM reads it as `audio/<format>`), or none. */
    format: z.optional(z.string()),
  }),
});
/**
 * Inline audio on a custom-role message: any `format`, or none (vLLM reads it as `audio/<format>`).
 */
export interface ChatCompletionCustomContentPartInputAudio extends Fields<typeof customInputAudioPart.shape> {}
const toolReferencePart = looseObject({
  /** Always `"tool_reference"`. */
  type: z.literal("tool_reference"),
  /** The name of the tool referenced (a deferred tool the chat template expands). */
  name: z.optional(z.string()),
});
/**
 * A reference to a tool by name, handed to the chat template as it is (custom-role messages).
 */
export interface ChatCompletionContentPartToolReference extends Fields<typeof toolReferencePart.shape> {}
const customTypedPart = taggedUnion("type", [
  ...userContentParts.filter((p) => p !== inputAudioPart),
  customInputAudioPart,
  refusalPart,
  thinkingPart,
  toolReferencePart,
]);
const customRolePart = z.unknown().check((ctx) => {
  const v = ctx.value;
  if (typeof v === "string") return;
  const typeless = typeof v === "object" && v !== null && !Array.isArray(v) && (v as { type?: unknown }).type == null;
  if (typeless) return;
  const r = z.safeParse(customTypedPart, v);
  if (!r.success) ctx.issues.push(...(r.error.issues as z.core.$ZodRawIssue[]));
}) as unknown as SchemaOf<ChatCompletionCustomContentPart>;
/**
 * A content part of a custom-role message (vLLM's free-form message): a string, any typed part
 * (input_audio of any format, tool_reference included), or a part without `type`.
 */
export const chatCompletionCustomContentPartSchema: SchemaOf<ChatCompletionCustomContentPart> = customRolePart;

// vLLM also reads parts written without `type` by the key they hold (content-part-untyped.ts).
const anyPart = withUntypedForms(taggedUnion("type", [...userContentParts, refusalPart, thinkingPart]));
/**
 * Any content part at all, refusals and thinking included: vLLM takes every part on every role,
 * and the short forms without `type` (`{image_url: "https://..."}`).
 */
export const chatCompletionAnyContentPartSchema: SchemaOf<ChatCompletionAnyContentPart> = anyPart;

const assistantPart = anyPart;
/**
 * A content part of an assistant message: any part (text, refusal and thinking are the usual ones).
 */
export const chatCompletionAssistantContentPartSchema: SchemaOf<ChatCompletionAssistantContentPart> = assistantPart;

/**
 * Any content part of a user message, told apart by `type`.
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
 */
export type ChatCompletionAssistantContentPart = ChatCompletionAnyContentPart;

/**
 * A content part of a custom-role message (`role: "ipython"`, ...): vLLM's free-form message
 * takes a bare string, every typed part (an `input_audio` of any format, a `tool_reference`),
 * and parts without `type` (typed here as vLLM's short forms; any other passes at run time).
 */
// Parts without `type` are typed as vLLM's short forms, which is what they are for; any other
// untyped object passes at run time (a union member open to every key would also take every
// misspelt typed part, and the compiler's error would name it instead of the real mistake).
export type ChatCompletionCustomContentPart =
  | string
  | Exclude<ChatCompletionAnyContentPart, ChatCompletionContentPartInputAudio>
  | ChatCompletionCustomContentPartInputAudio
  | ChatCompletionContentPartToolReference;

/**
 * Any content part at all, refusals and thinking included. vLLM takes every part on every role
 * (its free-form message accepts any part), so every message kind's content is built on it.
 */
export type ChatCompletionAnyContentPart =
  | ChatCompletionContentPart
  | ChatCompletionContentPartRefusal
  | ChatCompletionContentPartThinking
  | ChatCompletionContentPartUntyped;
