// Response types of the call query. They are read, not validated: every member beyond the
// always-present ones is optional, since older servers leave out newer fields, `columns` can
// drop others, and null and absent mean the same. Unknown members are kept (index signatures).

/**
 * An ISO-8601 date-time as the server writes it, e.g. `"2025-03-18T17:04:12.345000Z"`.
 */
export type IsoDateTime = string;

/**
 * Token counts of one model inside `summary.usage` (and the base of a cost entry).
 */
export interface LLMUsage {
  requests?: number | null;
  prompt_tokens?: number | null;
  input_tokens?: number | null;
  completion_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  [key: string]: unknown;
}

/**
 * Cost of one model inside `summary.weave.costs` (only with `include_costs`): the usage counts
 * plus prices and the pricing record they came from.
 */
export interface LLMCost extends LLMUsage {
  prompt_tokens_total_cost?: number | null;
  completion_tokens_total_cost?: number | null;
  prompt_token_cost?: number | null;
  completion_token_cost?: number | null;
  prompt_token_cost_unit?: string | null;
  completion_token_cost_unit?: string | null;
  effective_date?: string | null;
  provider_id?: string | null;
  pricing_level?: string | null;
  pricing_level_id?: string | null;
  created_at?: string | null;
  created_by?: string | null;
}

/**
 * Status of a call as derived by the server. Open: newer servers may add values.
 */
export type CallStatus = "success" | "error" | "running" | "descendant_error" | (string & {});

/**
 * Number of calls of the trace per status, in `summary.status_counts`.
 */
export interface StatusCounts {
  success?: number;
  error?: number;
  running?: number;
  descendant_error?: number;
  [key: string]: unknown;
}

/**
 * One feedback entry in `summary.weave.feedback` (only with `include_feedback`).
 */
export interface CallFeedback {
  id?: string;
  feedback_type?: string;
  weave_ref?: string;
  payload?: Record<string, unknown>;
  creator?: string | null;
  created_at?: IsoDateTime;
  wb_user_id?: string | null;
  runnable_ref?: string | null;
  call_ref?: string | null;
  trigger_ref?: string | null;
  annotation_ref?: string | null;
  [key: string]: unknown;
}

/**
 * `summary.weave`: fields the server derives on every read (anything the client wrote there is
 * overwritten).
 */
export interface WeaveSummary {
  status?: CallStatus;
  /** Only once the call has ended. */
  latency_ms?: number;
  /** The op's short name; newer servers write `display_name` instead when one is set. */
  trace_name?: string;
  display_name?: string;
  /** Per model; only with `include_costs`. */
  costs?: Record<string, LLMCost>;
  /** Only with `include_feedback`. */
  feedback?: CallFeedback[];
  [key: string]: unknown;
}

/**
 * The `summary` of a call.
 */
export interface SummaryMap {
  /** Token counts per model name. */
  usage?: Record<string, LLMUsage>;
  status_counts?: StatusCounts;
  weave?: WeaveSummary;
  [key: string]: unknown;
}

/**
 * One recorded call, as yielded by `client.calls.query(...)`.
 */
export interface CallRecord {
  /** UUIDv7. */
  id: string;
  /** `"entity/project"`. */
  project_id: string;
  /** Usually a ref URI, `weave:///entity/project/op/<name>:<digest>`. */
  op_name: string;
  trace_id: string;
  started_at: IsoDateTime;
  attributes: Record<string, unknown>;
  inputs: Record<string, unknown>;
  display_name?: string | null;
  parent_id?: string | null;
  thread_id?: string | null;
  turn_id?: string | null;
  /** Null while the call is running. */
  ended_at?: IsoDateTime | null;
  output?: unknown;
  exception?: string | null;
  summary?: SummaryMap | null;
  wb_user_id?: string | null;
  wb_run_id?: string | null;
  wb_run_step?: number | null;
  wb_run_step_end?: number | null;
  deleted_at?: IsoDateTime | null;
  /** Only with `include_storage_size`. */
  storage_size_bytes?: number | null;
  /** Only with `include_total_storage_size`. */
  total_storage_size_bytes?: number | null;
  /** Only with `include_usernames`, on newer servers. */
  wb_username?: string | null;
  /** Null: no expiry. Newer servers only. */
  expire_at?: IsoDateTime | null;
  [key: string]: unknown;
}
