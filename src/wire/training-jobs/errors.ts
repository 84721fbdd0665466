import { InferloopError } from "../../core/errors/errors.js";
import type { TrainingJobEvent } from "./types.js";

/**
 * A training job reported `training_failed`. `jobId` names the job and `event` is the failing
 * event as the server sent it; the message carries the server's `error_message`.
 */
export class TrainingJobFailedError extends InferloopError {
  override name = "TrainingJobFailedError";
  readonly jobId: string;
  readonly event: TrainingJobEvent;
  constructor(jobId: string, event: TrainingJobEvent) {
    const reason = event.data?.["error_message"];
    super(
      `Training job ${jobId} failed: ${typeof reason === "string" && reason !== "" ? reason : "the server gave no error_message"} (event ${event.id}).`,
    );
    this.jobId = jobId;
    this.event = event;
  }
}
