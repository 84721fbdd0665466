/**
 * `trainLoop`'s `logTo`: each trained step's rollout and gradient metrics, and each evaluation,
 * written to the model's W&B run from the client, as current ART does (its `Model.log` logs
 * with the wandb SDK to the model's run; it stopped sending trajectories to W&B Training's
 * `/log` route in `OpenPipe/ART` PR #518). The run is the one W&B Training made for the model,
 * `run_id` in its entity and project; every key is plotted against `training_step`, as ART
 * defines it. A failure to log never fails the loop: it is said once by the findings rule.
 */

import { APIUserAbortError, RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import { warnFindings } from "../../core/errors/findings.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import { TRAINING_STEP } from "../../wire/wandb-runs/history.js";
import { evalRow, type TrainedStep, trainRow } from "./loop-metrics.js";
import { RunWriter, type RunWriterOptions } from "./run-writer.js";

/**
 * Where `trainLoop` logs each trained step's metrics and each evaluation (`logTo`): `"wandb"`,
 * the model's W&B run (its `run_id`, in its entity and project), written through W&B's own API
 * on `wandbBaseURL` as W&B's SDK writes a run; or nowhere (`false`).
 */
export type LoopLogTarget = "wandb" | false;

/** What the loop tells its log. */
export interface LoopRunLog {
  /** A step was trained: its row goes to the run. */
  trained(step: TrainedStep): void;
  /** A checkpoint was evaluated: its row goes to the run. */
  evaluated(step: number, metrics: Readonly<Record<string, unknown>>): void;
  /** The loop ended (with `error` when it failed): what is left is sent and the run marked so. */
  finish(error: unknown): Promise<void>;
}

/** The model fields the log needs. */
export interface LoopRunModel {
  entity: string;
  project: string;
  name: string;
  run_id?: string | null;
}

/** The refusals of a `logTo` option (for the loop's option checks). */
export function logToIssues(value: unknown): ValidationIssue[] {
  if (value === undefined || value === false || value === "wandb") return [];
  return [
    {
      path: "logTo",
      message: `must be "wandb" (the model's W&B run) or false (log nowhere), got ${JSON.stringify(value) ?? String(value)}`,
    },
  ];
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The loop's log for `model`, or `undefined` when it logs nowhere: `logTo: false`, or no
 * `logTo` and a model without a W&B run. `logTo: "wandb"` for a model without one throws
 * `RequestValidationError`.
 *
 * @example
 * ```ts
 * declare const http: Parameters<typeof openLoopRunLog>[0]; // the client's pipeline
 * const log = openLoopRunLog(http, trainable, undefined);
 * log?.evaluated(3, { reward: 0.8 });
 * await log?.finish(undefined);
 * ```
 */
export function openLoopRunLog(
  http: HttpClient,
  model: LoopRunModel,
  logTo: LoopLogTarget | undefined,
  writerOptions: Omit<RunWriterOptions, "onFailure" | "stepMetric"> = {},
): LoopRunLog | undefined {
  if (logTo === false) return undefined;
  const runId = typeof model.run_id === "string" && model.run_id !== "" ? model.run_id : undefined;
  if (runId === undefined) {
    if (logTo === undefined) return undefined;
    throw new RequestValidationError(
      [
        {
          path: "logTo",
          message: `model ${model.entity}/${model.project}/${model.name} has no W&B run (run_id) to log to: register it with client.trainableModels.register, or pass logTo: false`,
          code: "custom",
        },
      ],
      "trainLoop options",
    );
  }
  const where = `W&B run ${model.entity}/${model.project}/${runId}`;
  const writer = new RunWriter(
    http,
    { entity: model.entity, project: model.project, runId },
    {
      ...writerOptions,
      stepMetric: TRAINING_STEP,
      onFailure: ({ error, final, unsent }) =>
        warnFindings(http.config.log, "trainLoop", [
          final
            ? {
                code: "wandb_log_failed",
                message: `metrics are not logged to ${where} (${describe(error)}); ${unsent} row(s) not sent. The loop goes on; logTo: false turns this logging off.`,
              }
            : {
                code: "wandb_log_retrying",
                message: `metrics could not be sent to ${where} yet (${describe(error)}); they are kept and sent again, and the loop goes on.`,
              },
        ]),
    },
  );
  const quietly = (fn: () => void) => {
    try {
      fn();
    } catch {
      // A row that cannot be made is not worth failing a training loop for.
    }
  };
  return {
    trained: (step) => quietly(() => writer.log(trainRow(step))),
    evaluated: (step, metrics) => quietly(() => writer.log(evalRow(step, metrics))),
    // An abort (or a `break`) is the user's choice: the run is finished, not failed.
    finish: (error) => writer.finish(error === undefined || error instanceof APIUserAbortError ? 0 : 1),
  };
}
