/**
 * Content parts written without `type`: the short forms vLLM's part parser reads by the key a
 * part holds (`vllm/entrypoints/chat_utils.py`, `_parse_chat_message_content_mm_part`):
 * `{image_url: "https://..."}`, `{audio_url: ...}`, `{video_url: ...}`, `{input_audio: {...}}`,
 * `{image_embeds: ...}`, `{audio_embeds: ...}`, `{prompt_embeds: ..., data}`,
 * `{tool_reference: ..., name}`. A part without `type` holding none of these keys (`{text: "hi"}`
 * among them) is refused on every role, as vLLM refuses it when it renders the prompt
 * ("Missing 'type' field in multimodal part").
 *
 * @module
 */
import * as z from "zod/mini";

/**
 * A URL as a string, or an object holding it (`{url}`); vLLM reads either in the short forms.
 */
export type UntypedPartURL = string | { url?: string } | null;

/**
 * A content part without `type`, told apart by the key it holds (vLLM's short forms).
 */
export type ChatCompletionContentPartUntyped = {
  type?: undefined;
  /** A caller-made id of the media, for vLLM's media cache. */
  uuid?: string | null;
} & (
  | { image_url: UntypedPartURL }
  | { image_embeds: string | Record<string, string> | null }
  | { audio_embeds: string | Record<string, string> | null }
  | { prompt_embeds: unknown; data?: string }
  | { audio_url: UntypedPartURL }
  | { input_audio: { data: string; format?: string } }
  | { video_url: UntypedPartURL }
  | { tool_reference: unknown; name?: string }
);

const url = z.nullable(z.union([z.string(), z.looseObject({ url: z.optional(z.string()) })]));
const embeds = z.nullable(z.union([z.string(), z.record(z.string(), z.string())]));

// In the order vLLM tries them: the first key present decides.
const FORMS: ReadonlyArray<[string, z.ZodMiniType]> = [
  ["image_url", url],
  ["image_embeds", embeds],
  ["audio_embeds", embeds],
  ["prompt_embeds", z.unknown()],
  ["audio_url", url],
  ["input_audio", z.looseObject({ data: z.string(), format: z.optional(z.string()) })],
  ["video_url", url],
  ["tool_reference", z.unknown()],
];
const KEYS = FORMS.map(([k]) => k).join(", ");

/**
 * `typed` for a part with `type`; a part without one is checked as one of vLLM's short forms.
 *
 * @example
 * ```ts
 * const part = withUntypedForms(chatCompletionAnyContentPartSchema);
 * part.parse({ image_url: "https://example.com/cat.png" });
 * ```
 */
export function withUntypedForms<In>(
  typed: z.ZodMiniType<In, In>,
): z.ZodMiniType<In | ChatCompletionContentPartUntyped, In | ChatCompletionContentPartUntyped> {
  return z.unknown().check((ctx) => {
    const value = ctx.value;
    // vLLM reads the part with `part.get("type")`: a `type` of null is no type either.
    const untyped =
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      (value as { type?: unknown }).type == null;
    if (!untyped) {
      const r = z.safeParse(typed, value);
      if (!r.success) ctx.issues.push(...(r.error.issues as z.core.$ZodRawIssue[]));
      return;
    }
    const part = value as Record<string, unknown>;
    const uuid = part["uuid"];
    if (uuid != null && typeof uuid !== "string")
      ctx.issues.push({ code: "invalid_type", expected: "string", input: uuid, path: ["uuid"] });
    const form = FORMS.find(([k]) => k in part && (k !== "input_audio" || part[k] != null));
    if (form === undefined) {
      ctx.issues.push({
        code: "custom",
        input: undefined,
        path: ["type"],
        message: `is missing: give the part a type ("text" for text), or write one of vLLM's short forms (${KEYS})`,
      });
      return;
    }
    const r = z.safeParse(form[1], part[form[0]]);
    if (!r.success)
      for (const i of r.error.issues)
        ctx.issues.push({ ...(i as z.core.$ZodRawIssue), path: [form[0], ...i.path] } as z.core.$ZodRawIssue);
  }) as unknown as z.ZodMiniType<In | ChatCompletionContentPartUntyped, In | ChatCompletionContentPartUntyped>;
}
