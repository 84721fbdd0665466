/**
 * The options of a fake service (node server and msw handlers alike).
 */
import type { Fault } from "./faults/kinds.js";
import type { FakeCallRecord, FakeModelEntry } from "./types.js";

/**
 * Options of {@link startFakeService} and {@link createFakeState}.
 */
export interface FakeServiceOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Bearer token accepted on `/v1/...`. Default `"fake-api-key"`. */
  apiKey?: string;
  /** Basic-auth user accepted on the trace routes. Default `"api"`. */
  username?: string;
  /** Basic-auth password. Default: the apiKey. */
  password?: string;
  /** Delay added before every response, in ms. Default 0. */
  latencyMs?: number;
  /** Seed the call store with the reference records plus generated ones. Default true. */
  seedCalls?: boolean;
  /** How many generated records the seed adds besides the four reference ones. Default 300. */
  seedCallCount?: number;
  /** Extra call records stored at start (and after `reset()`). */
  calls?: FakeCallRecord[];
  /**
   * Records generated on the fly when a query runs, never stored: a 200k-record query streams
   * with flat memory. Project `acme/synthetic` unless `syntheticProjectId` says otherwise.
   */
  syntheticCalls?: number;
  /** Project id of the synthetic records. Default `"acme/synthetic"`. */
  syntheticProjectId?: string;
  /** Served models (ids or full entries). Default: a small built-in list. */
  models?: Array<string | FakeModelEntry>;
  /** Faults queued at start (see `faults/kinds.ts`). */
  faults?: Fault[];
  /**
   * Compress JSON and JSONL answers when the request's `accept-encoding` allows (zstd, then
   * gzip, then br), as a compressing server or proxy does. SSE streams are never compressed.
   * Default false. Node adapter only.
   */
  compression?: boolean;
  /**
   * Time between two events of a training job, in ms (default 5): a job of 12 trajectories
   * takes about 14 steps. Raise it to watch progress; 0 ends every job at once.
   */
  trainingStepMs?: number;
  /**
   * How long a training job takes from creation to its last event, in ms, whatever its size:
   * the job's events are spread evenly over it (overrides `trainingStepMs` for the pace). Use it
   * to give jobs a known length, e.g. to measure a loop that samples while a job trains.
   */
  trainingJobMs?: number;
  /** The entity trainable models get when created without one. Default `"acme"`. */
  entity?: string;
  /** Base models `GET /v1/preview/base-models` lists and model creation accepts. */
  baseModels?: string[];
  /**
   * `false` answers as a vLLM started without `--enable-auto-tool-choice`: `tools` without
   * `tool_choice` (vLLM then picks `"auto"`) or with `"auto"` is a 400 '"auto" tool choice
   * requires --enable-auto-tool-choice and --tool-call-parser to be set'. Default true (a
   * tool-calling deployment).
   */
  autoToolChoice?: boolean;
}
