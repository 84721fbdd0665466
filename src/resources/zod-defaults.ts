import { config, memoizer } from "zod/mini";
import en from "zod/v4/locales/en.js";

/**
 * Gives `zod/mini` the two defaults that classic `zod` installs by itself when its first schema
 * is built: English issue messages ("Invalid input: expected string, received number" rather
 * than a bare "Invalid input") and the memoizer that lets recursive schemas parse inputs holding
 * reference cycles instead of overflowing the stack. Only fills what is unset, exactly as classic
 * does, so a locale or memoizer the application configured itself wins. Call it at the top of
 * every module that builds schemas, before the first one is built: containers read the memoizer
 * when they are constructed. A plain call, not a bare side-effect import, so bundlers honouring
 * `"sideEffects": false` keep it.
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 * import { ensureZodDefaults } from "../zod-defaults.js";
 *
 * ensureZodDefaults();
 * const schema = z.strictObject({ name: z.string() });
 * schema.safeParse({ name: 1 }).error?.issues[0]?.message; // "Invalid input: expected string, received number"
 * ```
 */
export function ensureZodDefaults(): void {
  const current = config();
  if (!current.localeError) config(en());
  if (!current.memoizer) config({ memoizer: memoizer() });
}
