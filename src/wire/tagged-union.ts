import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { quickAccepts } from "../core/checks/quick-accept.js";
import { nearMisses } from "./request-shapes.js";

/** An object schema whose `key` member is a literal: one option of a {@link taggedUnion}. */
type TaggedOption = z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$ZodObjectConfig>;

/**
 * A union of object schemas told apart by one literal member (a message's `role`, a content
 * part's `type`): the value's tag picks the one schema that checks it, and an unknown tag is a
 * single issue on the tag naming the accepted values. It does what zod's `discriminatedUnion`
 * does for these shapes at a fraction of its size in a browser bundle.
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 *
 * const part = taggedUnion("type", [
 *   z.looseObject({ type: z.literal("text"), text: z.string() }),
 *   z.looseObject({ type: z.literal("image_url"), image_url: z.looseObject({ url: z.string() }) }),
 * ]);
 * part.safeParse({ type: "video" }).error?.issues[0]?.path; // ["type"]
 * ```
 *
 * With `fallback`, a value whose tag is a string none of the options names is checked by it
 * instead (vLLM's message with any other `role`).
 *
 * With `refuseNearMisses`, a key the chosen option does not know but that is within two edits
 * of one it does (`nmae` for `name`) is refused with a "did you mean"; other unknown keys pass
 * (loose options keep them), since servers accept fields the SDK does not know yet.
 */
export function taggedUnion<const T extends readonly TaggedOption[], F extends z.ZodMiniType = z.ZodMiniNever>(
  key: string,
  options: T,
  fallback?: F,
  { refuseNearMisses = false }: { refuseNearMisses?: boolean } = {},
): z.ZodMiniType<z.output<T[number]> | z.output<F>, z.input<T[number]> | z.input<F>> {
  const byTag = new Map<unknown, T[number]>();
  const knownKeys = new Map<T[number], string[]>();
  for (const option of options) {
    const tag = option.def.shape[key] as z.ZodMiniLiteral;
    byTag.set(tag.def.values[0], option);
    knownKeys.set(option, Object.keys(option.def.shape));
  }
  const tags = [...byTag.keys()] as z.core.util.Primitive[];
  return z.unknown().check((ctx) => {
    const value = ctx.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      ctx.issues.push({ code: "invalid_type", expected: "object", input: value });
      return;
    }
    const tag = (value as Record<string, unknown>)[key];
    const option = byTag.get(tag) ?? (fallback !== undefined && typeof tag === "string" ? fallback : undefined);
    if (option === undefined) {
      ctx.issues.push({ code: "invalid_value", values: tags, input: tag, path: [key] });
      return;
    }
    if (refuseNearMisses) nearMisses(value, knownKeys.get(option as T[number]) ?? shapeKeys(option), ctx.issues);
    if (quickAccepts(option, value)) return;
    const result = safeParse(option, value);
    if (!result.success) ctx.issues.push(...(result.error.issues as z.core.$ZodRawIssue[]));
  }) as unknown as z.ZodMiniType<z.output<T[number]> | z.output<F>, z.input<T[number]> | z.input<F>>;
}

/** The keys an object schema declares (none for a schema that is not an object). */
function shapeKeys(schema: z.ZodMiniType): string[] {
  const shape = (schema as { def?: { shape?: object } }).def?.shape;
  return shape ? Object.keys(shape) : [];
}
