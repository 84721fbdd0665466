/**
 * The fake's W&B runs, as W&B's server keeps them for its SDK (`wandb/wandb`
 * `core/internal/filestream/`, `core/api/graphql/mutation_run.graphql`): a run is made or
 * updated by `upsertBucket` (whose `config` replaces the run's), its history is a list of lines
 * that file_stream writes at the offsets a request names (the same offset again rewrites the
 * line, which makes a resent request harmless), its summary is the last summary line sent, and
 * `complete` with an `exitcode` finishes it. Tests read a run's rows with {@link WandbRunStore.history}.
 */
import { base64Utf8, randomHex } from "../util.js";

/**
 * One W&B run of the fake (`svc.state.wandbRuns.find(entity, project, runId)`).
 */
export interface FakeWandbRun {
  /** The storage id (GraphQL `bucket.id`). */
  id: string;
  entity: string;
  project: string;
  /** The run id (GraphQL `bucket.name`), the last segment of its file_stream path. */
  name: string;
  /** The run's config as the last `upsertBucket` sent it: a JSON string of `{"key": {"value": ...}}`. */
  config: string;
  /** The history file's lines, as sent (`wandb-history.jsonl`). */
  historyLines: string[];
  /** The summary: the last line of `wandb-summary.json` sent. */
  summary: Record<string, unknown>;
  /** `running` until a request says `complete`: then `finished` (exit code 0) or `failed`. */
  state: "running" | "finished" | "failed";
  exitcode: number | null;
  /** file_stream requests that carried nothing (`{}`): heartbeats. */
  heartbeats: number;
}

const key = (entity: string, project: string, name: string) => `${entity}\u0000${project}\u0000${name}`;

/** The fake's runs, by entity, project and run id. */
export class WandbRunStore {
  readonly #runs = new Map<string, FakeWandbRun>();

  /**
   * Every run, in the order they were made.
   *
   * @example
   * ```ts
   * svc.state.wandbRuns.list().map((r) => r.name);
   * ```
   */
  list(): FakeWandbRun[] {
    return [...this.#runs.values()];
  }

  /**
   * The run `name` of `entity/project`, if it exists.
   *
   * @example
   * ```ts
   * svc.state.wandbRuns.find(trainable.entity, trainable.project, trainable.run_id!)?.state; // "finished"
   * ```
   */
  find(entity: string, project: string, name: string): FakeWandbRun | undefined {
    return this.#runs.get(key(entity, project, name));
  }

  /**
   * The run's history rows, parsed, in line order (empty when there is no such run).
   *
   * @example
   * ```ts
   * const rows = svc.state.wandbRuns.history(trainable.entity, trainable.project, trainable.run_id!);
   * rows.map((r) => [r._step, r.training_step]);
   * ```
   */
  history(entity: string, project: string, name: string): Record<string, unknown>[] {
    return (this.find(entity, project, name)?.historyLines ?? []).map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
  }

  /**
   * Makes the run, or updates it: a `config` replaces the run's; a finished run runs again.
   *
   * @example
   * ```ts
   * svc.state.wandbRuns.upsert("acme", "rl", "abc123").inserted; // true the first time
   * ```
   */
  upsert(entity: string, project: string, name: string, config?: string): { run: FakeWandbRun; inserted: boolean } {
    const k = key(entity, project, name);
    const known = this.#runs.get(k);
    if (known !== undefined) {
      if (config !== undefined) known.config = config;
      known.state = "running";
      known.exitcode = null;
      return { run: known, inserted: false };
    }
    const run: FakeWandbRun = {
      // W&B's storage ids are base64 of the run's type and names.
      id: base64Utf8(`Run:v1:${name}:${project}:${entity}`),
      entity,
      project,
      name,
      config: config ?? "{}",
      historyLines: [],
      summary: {},
      state: "running",
      exitcode: null,
      heartbeats: 0,
    };
    this.#runs.set(k, run);
    return { run, inserted: true };
  }

  /**
   * A run id as W&B makes one when `upsertBucket` names none (8 lower-case letters and digits).
   *
   * @example
   * ```ts
   * svc.state.wandbRuns.newRunId(); // "k3j2h1g0"
   * ```
   */
  newRunId(): string {
    return randomHex(8);
  }

  /**
   * Forgets every run.
   *
   * @example
   * ```ts
   * svc.state.wandbRuns.clear();
   * ```
   */
  clear(): void {
    this.#runs.clear();
  }
}
