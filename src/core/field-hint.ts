import { closestName } from "./closest-name.js";
import type { UnknownKeyHint } from "./validate.js";

/**
 * The hint for an unknown top-level field of a request with these `known` fields: a "did you
 * mean" when one is close, and where fields the SDK does not know yet belong (the `extraBody`
 * option, merged into the body after validation). Nested unknown keys get no hint.
 */
export function topLevelFieldHint(known: readonly string[]): UnknownKeyHint {
  return (key, path) => {
    if (path.length > 0) return "";
    const near = closestName(key, known);
    return `${near ? ` (did you mean "${near}"?)` : ""}; send fields unknown to the SDK with the extraBody option`;
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
