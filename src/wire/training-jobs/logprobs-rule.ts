import { isObject } from "../../core/decoding/response-checks.js";
import { RequestValidationError } from "../../core/errors/errors.js";
import type { TrajectoryChecks } from "./trajectory-checks.js";

/**
 * Refuses a job none of whose choices carries logprobs, unless it sets
 * `allow_training_without_logprobs`. ART's trainer (`src/art/preprocessing/tokenize.py`) makes a
 * choice trainable only when its `logprobs` is not null or that setting is true; a trajectory
 * without one is dropped whole. Such a job would be accepted and train nothing.
 * `precalculate_logprobs` does not rescue it: it recomputes the logprobs of the tokens packing
 * kept (ART's unsloth `train.py`), after the choices without logprobs are gone.
 */
export function refuseUntrainableJob(checks: TrajectoryChecks, config: unknown, what: string): void {
  const choices = checks.choicesWithoutAnyLogprobs();
  if (choices === 0) return;
  if (isObject(config) && config["allow_training_without_logprobs"] === true) return;
  throw new RequestValidationError(
    [
      {
        path: "trajectory_groups",
        code: "no_logprobs",
        message:
          `none of the job's ${choices} choice(s) carries logprobs, so the trainer would train on nothing ` +
          "(it keeps a choice only with its logprobs unless experimental_config.allow_training_without_logprobs is true; " +
          "experimental_config.precalculate_logprobs alone does not make such choices trainable). Sample rollouts with " +
          "`logprobs: true` (Trajectory.sample and captureTrajectory({ logprobs: true }) ask for them), or set " +
          "experimental_config.allow_training_without_logprobs: true (with precalculate_logprobs: true to have the trainer compute them)",
      },
    ],
    what,
  );
}
