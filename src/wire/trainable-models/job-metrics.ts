import type { TrainingJobEvent } from "../training-jobs/types.js";

/**
 * Follows a job's events to their end, handing each to `onEvent`, and resolves to the mean of
 * each numeric `gradient_step` member: what `model.train` and `model.trainSFT` report.
 */
export async function meanGradientMetrics(
  events: AsyncIterable<TrainingJobEvent>,
  onEvent: ((event: TrainingJobEvent) => void) | undefined,
): Promise<Record<string, number>> {
  const sums = new Map<string, { sum: number; n: number }>();
  for await (const event of events) {
    if (event.type === "gradient_step")
      for (const [key, value] of Object.entries(event.data ?? {})) {
        if (typeof value !== "number" || !Number.isFinite(value)) continue;
        const s = sums.get(key) ?? { sum: 0, n: 0 };
        s.sum += value;
        s.n++;
        sums.set(key, s);
      }
    onEvent?.(event);
  }
  const metrics: Record<string, number> = {};
  for (const [key, { sum, n }] of sums) metrics[key] = sum / n;
  return metrics;
}
