// Response types of Weave's feedback routes. Unknown members are kept.

/**
 * What `feedback.create` and `feedback.replace` resolve to: the new row's id and time, the
 * user the server recorded, and the payload as stored (a reaction gains its aliases).
 */
export interface FeedbackCreateResponse {
  id: string;
  /** ISO-8601 date-time. */
  created_at: string;
  wb_user_id: string;
  payload: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * One row of a feedback query: every field of the feedback, or the `fields` asked for.
 */
export interface FeedbackRow {
  id?: string;
  project_id?: string;
  weave_ref?: string;
  feedback_type?: string;
  payload?: Record<string, unknown>;
  annotation_ref?: string | null;
  runnable_ref?: string | null;
  call_ref?: string | null;
  trigger_ref?: string | null;
  creator?: string | null;
  /** ISO-8601 date-time. */
  created_at?: string;
  wb_user_id?: string;
  [key: string]: unknown;
}
