/**
 * The known name a misspelt one was probably meant to be, for "did you mean" messages.
 *
 * @module
 */

/** Farther than this many edits is a different word, not a typo. */
const MAX_TYPO_EDITS = 2;

/**
 * The name in `known` closest to `name` by edit distance (insertions, deletions,
 * substitutions), if one is at most two edits away; the first of equally close ones wins.
 * `name` itself being known returns it.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_TYPO_EDITS + 1;
  for (const candidate of known) {
    const d = editDistance(name, candidate, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

// Levenshtein distance, or `cap` as soon as it is clear the result is not below it.
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
