/**
 * Shared types of the fake service: recorded requests, stored records and the
 * transport-neutral request/response descriptions that the node and msw adapters translate.
 */
/**
 * One request as the fake service received it, kept in `svc.requests` for assertions.
 */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/models`. */
  path: string;
  /** Raw query string including `?`, or `""`. */
  query: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Raw body text (UTF-8 decoded), `""` when none. */
  body: string;
  /** The parsed body when it was valid JSON, else `undefined`. */
  json: unknown;
  /** `Date.now()` when the request was received. */
  time: number;
}

/**
 * An entry of `GET /v1/models`.
 */
export interface FakeModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  root: string;
}

/**
 * A trace-server call record (CallSchema). Only the required members are typed; every other
 * member is kept as given.
 */
export interface FakeCallRecord {
  id: string;
  project_id: string;
  op_name: string;
  trace_id: string;
  started_at: string;
  attributes: Record<string, unknown>;
  inputs: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A training job remembered by the fake service (`svc.trainingJobs`).
 */
export interface FakeTrainingJob {
  id: string;
  /** `sft` for a job of `POST /v1/preview/sft-training-jobs`; RL jobs have `rl`. */
  kind?: "rl" | "sft";
  model_id: string;
  idempotency_key: string | null;
  /** The request body as received (parsed). */
  request: Record<string, unknown>;
  /**
   * The reward of each trajectory, group by group (null where a trajectory has none), so a
   * test can check what its own loop scored: `expect(svc.trainingJobs[0]!.rewards).toEqual([[1, 0]])`.
   */
  rewards: (number | null)[][];
  created_at: string;
}

/**
 * A chunk of a response body.
 */
export type BodyPart = string | Uint8Array;

/**
 * A request as the shared router sees it, independent of node:http or msw.
 */
export interface FakeRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
  /** The body's bytes, for binary bodies (OTLP protobuf); `body` is their UTF-8 text. */
  bytes?: Uint8Array;
  json: unknown;
  /** Aborts when the client goes away or the service closes; stalls and streams stop on it. */
  signal: AbortSignal;
}

/**
 * What the adapters must do. A body iterator may throw {@link ConnectionReset} to drop the
 * connection mid-body.
 */
export type ResponsePlan =
  | {
      kind: "respond";
      status: number;
      headers: Record<string, string>;
      body: AsyncIterable<BodyPart>;
      /** Compress the body with this encoding (and say so in `content-encoding`). */
      encoding?: ContentEncoding;
    }
  | { kind: "reset" };

/**
 * A `content-encoding` the fake service can produce.
 */
export type ContentEncoding = "gzip" | "deflate" | "br" | "zstd";

/**
 * Thrown from a body iterator to make the adapter destroy the connection (no clean end).
 */
export class ConnectionReset extends Error {
  constructor() {
    super("fake service: connection reset by fault");
    this.name = "ConnectionReset";
  }
}
