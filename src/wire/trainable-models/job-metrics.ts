import type { TrainingJobEvent } from "../training-jobs/types.js";

// A gradient step's ordinal (the fake sends `step`; some servers `gradient_step`) counts steps:
// its mean over a job says nothing, and beside the model's `step` it misleads.
const COUNTERS = new Set(["step", "gradient_step"]);

/**
 * Follows a job's events to their end, handing each to `onEvent`, and resolves to the mean of
 * each numeric `gradient_step` member but the step's ordinal: what `model.train` and
 * `model.trainSFT` report.
 */
export async function meanGradientMetrics(
  events: AsyncIterable<TrainingJobEvent>,
  onEvent: ((event: TrainingJobEvent) => void) | undefined,
): Promise<Record<string, number>> {
  const sums = new Map<string, { sum: number; n: number }>();
  for await (const event of events) {
    if (event.type === "gradient_step")
      for (const [key, value] of Object.entries(event.data ?? {})) {
        if (typeof value !== "number" || !Number.isFinite(value) || COUNTERS.has(key)) continue;
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
