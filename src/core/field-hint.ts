import type { UnknownKeyHint } from "./validate.js";

/**
 * The known name closest to `key` within two edits, for "did you mean" hints on unknown
 * fields; `undefined` when none is that close (a different word, not a typo).
 *
 * @example
 * ```ts
 * closestName("max_completion_token", ["max_tokens", "max_completion_tokens"]); // "max_completion_tokens"
 * ```
 */
export function closestName(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3; // farther than 2 edits is a different word, not a typo
  for (const name of known) {
    const d = editDistance(key, name, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = name;
    }
  }
  return best;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The hint for an unknown top-level field of a request with these `known` fields: a "did you
 * mean" when one is close, and where fields the SDK does not know yet belong (the `extraBody`
 * option, merged into the body after validation). Nested unknown keys get no hint.
 *
 * @example
 * ```ts
 * const hint = topLevelFieldHint(["limit", "offset"]);
 * hint("limt", []); // ' (did you mean "limit"?); send fields unknown to the SDK with the extraBody option'
 * ```
 */
export function topLevelFieldHint(known: readonly string[]): UnknownKeyHint {
  return (key, path) => {
    if (path.length > 0) return "";
    const near = closestName(key, known);
    return `${near ? ` (did you mean "${near}"?)` : ""}; send fields unknown to the SDK with the extraBody option`;
  };
}
