/**
 * What W&B answers about a run, as this client reads it, and the body of one file_stream
 * request. Field names are W&B's (`wandb/wandb` `core/api/graphql/query_run_resume_status.graphql`,
 * `mutation_run.graphql`, `core/internal/filestream/filestreamrequest.go`).
 */

/** A run as `RunResumeStatus` finds it; `null` when the run does not exist yet. */
export interface RunResumeState {
  /** The run's storage id (GraphQL `bucket.id`). */
  id: string;
  /** The run id (GraphQL `bucket.name`), the last segment of the file_stream path. */
  name: string;
  /** How many history lines the run has: the offset the next line is written at. */
  historyLineCount: number;
  /** The run's summary (`summaryMetrics`, a JSON string on the wire), `{}` when empty. */
  summary: Record<string, unknown>;
  /** The last history lines (`historyTail`, JSON strings), parsed; unreadable ones left out. */
  historyTail: Record<string, unknown>[];
  /**
   * The run's config as W&B keeps it (`{"key": {"value": ...}}`); `undefined` when it is not a
   * readable JSON object, so that it is never sent back altered.
   */
  config: Record<string, unknown> | undefined;
}

/** `upsertBucket`'s answer: the run id, where it lives, and its history length. */
export interface UpsertedRun {
  id: string;
  name: string;
  project: string;
  entity: string;
  historyLineCount: number;
}

/** One file's lines in a file_stream request: `content` goes at line `offset` on. */
export interface FileStreamChunk {
  offset: number;
  content: string[];
}

/**
 * One file_stream request body: lines of `wandb-history.jsonl` and the whole summary as one
 * line of `wandb-summary.json`; the last request says `complete` and the `exitcode`. `{}` is a
 * heartbeat.
 */
export interface FileStreamBody {
  files?: Record<string, FileStreamChunk>;
  complete?: boolean;
  exitcode?: number;
}
