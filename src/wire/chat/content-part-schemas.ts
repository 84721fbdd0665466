/**
 * Zod schemas for the content parts of chat messages: text, image, audio, video, image
 * embeddings, refusal, thinking and tool references, and the unions of them that each kind of
 * message takes. A `file` part is refused on every role: vLLM's chat endpoint has no such part.
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
// vLLM's part parser validates a typed image part as OpenAI's (chat_utils._ImageParser): its
// `image_url` must be `{ url }`, and `detail` one of OpenAI's values. A bare URL string is read
// only by the short form without `type`; on a typed part vLLM refuses it when it renders.
const IMAGE_URL_OBJECT =
  'must be { url } on a typed part (vLLM refuses a string there); a bare URL goes in the form without type, { image_url: "https://..." }';
const imagePart = looseObject({
  /** Always `"image_url"`. */
  type: z.literal("image_url"),
  /** Where the image is: an object holding its URL (a bare string only in the form without `type`). */
  image_url: looseObject(
    {
      /** An `https:` URL, or a `data:image/...;base64,` URL with the image inline. */
      url: z.string(),
      /** Resolution hint: `"low"`, `"high"` or `"auto"` (OpenAI's values; vLLM ignores it). */
      detail: z.optional(z.enum(["auto", "low", "high"])),
    },
    {
      error: (issue) =>
        issue.code === "invalid_type" && typeof issue.input === "string" ? IMAGE_URL_OBJECT : undefined,
    },
  ),
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
// OpenAI's file part: vLLM's chat endpoint has no `file` part type, and its part parser refuses
// one when it renders the prompt ("Unsupported chat content part type: 'file'"), on any role.
const FILE_REFUSED =
  'is "file", which vLLM\'s chat endpoint refuses: send a document\'s text as a "text" part, media as "image_url", "input_audio", "audio_url" or "video_url"';
const fileRefused = (): z.core.$ZodRawIssue => ({
  code: "custom",
  input: "file",
  path: ["type"],
  message: FILE_REFUSED,
});
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
}).check((ctx) => {
  ctx.issues.push(fileRefused());
});
/**
 * `typed`, but a part of type `file` is refused with what vLLM takes instead (rather than as
 * an unknown type whose list of accepted ones would name it).
 */
function refusingFile<T>(typed: z.ZodMiniType<T, T>): z.ZodMiniType<T, T> {
  return z.unknown().check((ctx) => {
    const v = ctx.value;
    if (typeof v === "object" && v !== null && (v as { type?: unknown }).type === "file") {
      ctx.issues.push(fileRefused());
      return;
    }
    const r = z.safeParse(typed, v);
    if (!r.success) ctx.issues.push(...(r.error.issues as z.core.$ZodRawIssue[]));
  }) as unknown as z.ZodMiniType<T, T>;
}
/**
 * OpenAI's file content part (inline data or an uploaded file id). vLLM's chat endpoint has no
 * file part, so the SDK refuses it before sending on every role.
 *
 * @deprecated vLLM refuses it: send a document's text as a `text` part, images, audio and video
 * as their own parts.
 */
export interface ChatCompletionContentPartFile extends Fields<typeof filePart.shape> {}

/**
 * OpenAI's file content part. Refuses every value, saying what vLLM takes instead: vLLM's chat
 * endpoint has no file part.
 *
 * @deprecated vLLM refuses it: send a document's text as a `text` part, images, audio and video
 * as their own parts.
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

// The parts every role takes (mini unions have no `.options` to spread, so the list is kept
// here for the unions below).
const userContentParts = [
  textPart,
  imagePart,
  inputAudioPart,
  audioUrlPart,
  videoUrlPart,
  imageEmbedsPart,
  audioEmbedsPart,
  promptEmbedsPart,
] as const;

const userPart: SchemaOf<ChatCompletionContentPart> = refusingFile(taggedUnion("type", userContentParts));
/**
 * Any content part a user message may carry; an unknown `type` is refused.
 */
export const chatCompletionContentPartSchema: SchemaOf<ChatCompletionContentPart> = userPart;

// A custom-role message is vLLM's free-form message (chat_utils.CustomChatCompletionMessageParam):
// its parts are any of vLLM's part types, which end in `str`, so a bare string goes through as
// well, an input_audio of any format (or none), and a tool_reference part for the chat template.
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
 * A reference to a tool by name, handed to the chat template as it is (any role: vLLM's
 * free-form message takes it on standard roles too).
 */
export interface ChatCompletionContentPartToolReference extends Fields<typeof toolReferencePart.shape> {}

// The Responses API's text parts, which vLLM's part parser also reads (chat_utils.MM_PARSER_MAP).
// On a standard role vLLM holds parts to OpenAI's chat types, so these reach it on custom roles.
const inputTextPart = looseObject({
  /** Always `"input_text"`. */
  type: z.literal("input_text"),
  /** The text. */
  text: z.string(),
});
/**
 * A text part in the Responses API's form (custom-role messages): read as a `text` part.
 */
export interface ChatCompletionContentPartInputText extends Fields<typeof inputTextPart.shape> {}
const outputTextPart = looseObject({
  /** Always `"output_text"`. */
  type: z.literal("output_text"),
  /** The text. */
  text: z.string(),
});
/**
 * A model's text in the Responses API's form (custom-role messages): read as a `text` part.
 */
export interface ChatCompletionContentPartOutputText extends Fields<typeof outputTextPart.shape> {}
// vLLM validates it as openai's ResponseInputImageParam: `detail` is required there.
const inputImagePart = looseObject({
  /** Always `"input_image"`. */
  type: z.literal("input_image"),
  /** Resolution hint, required in this form: `"auto"`, `"low"`, `"high"` or `"original"`. */
  detail: z.enum(["auto", "low", "high", "original"], {
    error: 'is required on an input_image part: "auto", "low", "high" or "original"',
  }),
  /** The image's URL as a string (an `https:` or `data:image/...;base64,` URL). */
  image_url: z.nullish(z.string()),
  /** Id of an uploaded file holding the image. */
  file_id: z.nullish(z.string()),
});
/**
 * An image in the Responses API's form (custom-role messages): `image_url` is the URL string.
 */
export interface ChatCompletionContentPartInputImage extends Fields<typeof inputImagePart.shape> {}
// vLLM skips a text or refusal part whose text is absent or null (PART_TYPES_TO_SKIP_NONE_CONTENT);
// on a standard role OpenAI's part type requires it.
const customTextPart = looseObject({ type: z.literal("text"), text: z.nullish(z.string()) });
const customRefusalPart = looseObject({ type: z.literal("refusal"), refusal: z.nullish(z.string()) });
const customTypedPart = taggedUnion("type", [
  customTextPart,
  imagePart,
  customInputAudioPart,
  audioUrlPart,
  videoUrlPart,
  imageEmbedsPart,
  audioEmbedsPart,
  promptEmbedsPart,
  customRefusalPart,
  thinkingPart,
  toolReferencePart,
  inputTextPart,
  outputTextPart,
  inputImagePart,
]);
const customUntypedOrTyped = withUntypedForms(refusingFile(customTypedPart));
const customRolePart = z.unknown().check((ctx) => {
  if (typeof ctx.value === "string") return;
  const r = z.safeParse(customUntypedOrTyped, ctx.value);
  if (!r.success) ctx.issues.push(...(r.error.issues as z.core.$ZodRawIssue[]));
}) as unknown as SchemaOf<ChatCompletionCustomContentPart>;
/**
 * A content part of a custom-role message (vLLM's free-form message): a string, any typed part
 * (input_audio of any format, tool_reference, the Responses API's input_text, output_text and
 * input_image, a text part without text, which vLLM skips), or one of vLLM's short forms
 * without `type`. A `file` part and a part without `type` holding no short-form key are refused.
 */
export const chatCompletionCustomContentPartSchema: SchemaOf<ChatCompletionCustomContentPart> = customRolePart;

// vLLM also reads parts written without `type` by the key they hold (content-part-untyped.ts).
const anyPart: SchemaOf<ChatCompletionAnyContentPart> = withUntypedForms(
  refusingFile(taggedUnion("type", [...userContentParts, refusalPart, thinkingPart, toolReferencePart])),
);
/**
 * Any content part at all, refusals, thinking and tool references included: vLLM takes every
 * part on every role, and the short forms without `type` (`{image_url: "https://..."}`). A
 * `file` part is refused (vLLM's chat endpoint has none).
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
  | ChatCompletionContentPartImageEmbeds
  | ChatCompletionContentPartAudioEmbeds
  | ChatCompletionContentPartPromptEmbeds;

/**
 * A content part of an assistant message: any part (vLLM takes images and thinking on
 * assistant turns too); text, refusal and thinking are the usual ones.
 */
export type ChatCompletionAssistantContentPart = ChatCompletionAnyContentPart;

/**
 * A content part of a custom-role message (`role: "ipython"`, `"generic"`, ...): vLLM's
 * free-form message takes a bare string, every typed part (an `input_audio` of any format, a
 * `tool_reference`, the Responses API's `input_text`, `output_text` and `input_image`), and
 * vLLM's short forms without `type`.
 */
export type ChatCompletionCustomContentPart =
  | string
  | ChatCompletionContentPartInputText
  | ChatCompletionContentPartOutputText
  | ChatCompletionContentPartInputImage
  | Exclude<ChatCompletionAnyContentPart, ChatCompletionContentPartInputAudio>
  | ChatCompletionCustomContentPartInputAudio;

/**
 * Any content part at all, refusals, thinking and tool references included. vLLM takes every
 * part on every role (its free-form message accepts any part), so every message kind's content
 * is built on it.
 */
export type ChatCompletionAnyContentPart =
  | ChatCompletionContentPart
  | ChatCompletionContentPartRefusal
  | ChatCompletionContentPartThinking
  | ChatCompletionContentPartToolReference
  | ChatCompletionContentPartUntyped;
