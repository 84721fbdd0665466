import type { $ZodErrorMap, $ZodRawIssue } from "zod/v4/core";
import { closestName } from "./closest-name.js";

/**
 * Extra words appended to `unknown field "<key>"`, such as a "did you mean" suggestion;
 * `path` is where the object holding the key sits (`[]` for the top level). An empty answer
 * leaves the object's own "did you mean" ({@link keepKnownFields}).
 */
export type UnknownKeyHint = (key: string, path: readonly (string | number)[]) => string;

/**
 * The hint for an unknown top-level field of a request with these `known` fields: a "did you
 * mean" when one is close, and where fields the SDK does not know yet belong (the `extraBody`
 * option, merged into the body after validation). Nested unknown keys get the generic "did you
 * mean" of {@link knownFieldsHint}.
 */
export function topLevelFieldHint(known: readonly string[]): UnknownKeyHint {
  return (key, path) => {
    if (path.length > 0) return "";
    return `${didYouMean(key, known)}; send fields unknown to the SDK with the extraBody option`;
  };
}

/**
 * The hint for an unknown member of the object at top-level field `member` (a training job's
 * `experimental_config`): a "did you mean" when a known member is close, and how to send a
 * member newer than the SDK (`extraBody`, merged into that object). Other paths get no hint.
 */
export function memberFieldHint(member: string, known: readonly string[]): UnknownKeyHint {
  return (key, path) => {
    if (path.length !== 1 || path[0] !== member) return "";
    const near = closestName(key, known);
    return `${near ? ` (did you mean "${near}"?)` : ""}; send a setting newer than the SDK with the extraBody option, \`{ ${member}: { ${key}: ... } }\`, which is merged into ${member}`;
  };
}

/** ` (did you mean "x"?)` when a name in `known` is a likely typo of `key`, else "". */
function didYouMean(key: string, known: Iterable<string>): string {
  const near = closestName(key, known);
  return near === undefined ? "" : ` (did you mean "${near}"?)`;
}

// zod drops the schema from an issue before anyone outside it reads the issue; the names it
// knows ride along on this member instead (zod copies an issue's own members into the result).
const KNOWN = "knownFields";

/**
 * A zod error map for a strict object: its unknown-key issue keeps the names the object does
 * know, so the refusal of a misspelt key can say which one was meant ({@link knownFieldsHint}),
 * however deep the object sits. It adds no message of its own (`undefined`: the next map words it).
 */
export const keepKnownFields: $ZodErrorMap = (issue) => {
  if (issue.code === "unrecognized_keys") {
    const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
    if (shape !== undefined) (issue as $ZodRawIssue & { [KNOWN]?: string[] })[KNOWN] = Object.keys(shape);
  }
  return undefined;
};

/** The "did you mean" for `key`, an unknown key of the object whose issue this is (see {@link keepKnownFields}). */
export function knownFieldsHint(key: string, issue: object): string {
  const known = (issue as { [KNOWN]?: unknown })[KNOWN];
  return Array.isArray(known) ? didYouMean(key, known as string[]) : "";
}
