const BARS = "▁▂▃▄▅▆▇█";

/**
 * A curve of `values` in one line of block characters (`▁▂▃▅▇█`), lowest to highest, at most
 * `width` characters: longer series are averaged in buckets. Values that are not finite are
 * left out; equal values draw a flat line.
 *
 * @example
 * ```ts
 * import { sparkline } from "inferloop/progress";
 *
 * console.log(`reward ${sparkline([0, 0.3, 0.6, 1])}`); // reward ▁▃▅█
 * ```
 */
export function sparkline(values: readonly number[], width = 40): string {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return "";
  const n = Math.max(1, Math.min(Math.floor(width), finite.length));
  const points: number[] = [];
  for (let i = 0; i < n; i++) {
    const bucket = finite.slice(Math.floor((i * finite.length) / n), Math.floor(((i + 1) * finite.length) / n));
    points.push(bucket.reduce((a, b) => a + b, 0) / bucket.length);
  }
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  if (hi === lo) return BARS[3]!.repeat(points.length);
  return points.map((v) => BARS[Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1))]!).join("");
}
