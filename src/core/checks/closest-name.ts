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

/**
 * Up to `max` names of `known` that `name` was probably meant to be, nearest first: the same
 * name in another case, the same last segment (`Qwen3-8B` for `Qwen/Qwen3-8B`), then names at
 * most two edits away, ignoring case (of the whole name or of its last segment). `name` itself
 * is never among them.
 */
export function closestNames(name: string, known: Iterable<string>, max = 3): string[] {
  const last = (s: string) => s.slice(s.lastIndexOf("/") + 1).toLowerCase();
  const lower = name.toLowerCase();
  const ranked: [number, string][] = [];
  for (const candidate of known) {
    if (candidate === name) continue;
    const other = candidate.toLowerCase();
    const edits = Math.min(
      editDistance(lower, other, MAX_TYPO_EDITS + 1),
      editDistance(last(name), last(candidate), MAX_TYPO_EDITS + 1),
    );
    const rank = other === lower ? 0 : last(candidate) === last(name) ? 1 : 2 + edits;
    if (rank <= 2 + MAX_TYPO_EDITS) ranked.push([rank, candidate]);
  }
  return ranked
    .sort((a, b) => a[0] - b[0])
    .slice(0, max)
    .map(([, candidate]) => candidate);
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
