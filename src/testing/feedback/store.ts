/**
 * The feedback of one fake service, as Weave stores it: one row per `/feedback/create`, checked
 * by Weave's rules first (`checks.ts`); a reaction's payload gains `alias`, `detoned` and
 * `detoned_alias`. A call query with `include_feedback` shows a call's rows ({@link FeedbackStore.forCall}).
 */
import type { FakeCallRecord } from "../types.js";
import { isoMicros, randomUuid } from "../util.js";
import { checkCreate } from "./checks.js";

/**
 * One stored feedback row, as Weave keeps it.
 */
export interface FakeFeedbackRow {
  id: string;
  project_id: string;
  weave_ref: string;
  wb_user_id: string;
  creator: string | null;
  created_at: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  annotation_ref: string | null;
  runnable_ref: string | null;
  call_ref: string | null;
  trigger_ref: string | null;
  queue_id: string | null;
}

/**
 * Aliases of the emoji the fake knows (Weave uses the full emoji table).
 */
export const EMOJI_ALIASES: Record<string, string> = {
  "👍": ":thumbs_up:",
  "👎": ":thumbs_down:",
  "🎉": ":party_popper:",
  "❤️": ":red_heart:",
  "🤔": ":thinking_face:",
};

/**
 * The feedback of one fake service.
 *
 * @example
 * ```ts
 * svc.state.feedback.forCall(referenceCalls()[0]!); // [] until feedback is created on it
 * ```
 */
export class FeedbackStore {
  rows: FakeFeedbackRow[] = [];
  private clock: () => number;
  private last = 0;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
  }

  /** Strictly increasing times, so that creation order is the default order. */
  private now(): string {
    this.last = Math.max(this.clock(), this.last + 1);
    return isoMicros(this.last);
  }

  /**
   * Validates and stores one row; returns it, or the refusal.
   *
   * @example
   * ```ts
   * const [call] = referenceCalls();
   * const weave_ref = `weave:///${call!.project_id}/call/${call!.id}`;
   * svc.state.feedback.create({ project_id: call!.project_id, weave_ref, feedback_type: "score", payload: { value: 1 } }, svc.userId);
   * ```
   */
  create(body: Record<string, unknown>, userId: string): FakeFeedbackRow | { status: number; reason: string } {
    const refused = checkCreate(body);
    if (refused !== undefined) return { status: 400, reason: refused };
    const type = body["feedback_type"] as string;
    const payload = { ...(body["payload"] as Record<string, unknown>) };
    if (type === "wandb.reaction.1") {
      const emoji = payload["emoji"] as string;
      const alias = EMOJI_ALIASES[emoji] ?? `:${[...emoji].map((c) => c.codePointAt(0)!.toString(16)).join("_")}:`;
      payload["alias"] = alias;
      payload["detoned"] = emoji;
      payload["detoned_alias"] = alias;
    }
    const nullableStr = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
    const row: FakeFeedbackRow = {
      id: typeof body["id"] === "string" && body["id"] !== "" ? body["id"] : randomUuid(),
      project_id: body["project_id"] as string,
      weave_ref: body["weave_ref"] as string,
      wb_user_id: userId,
      creator: nullableStr("creator"),
      created_at: this.now(),
      feedback_type: type,
      payload,
      annotation_ref: nullableStr("annotation_ref"),
      runnable_ref: nullableStr("runnable_ref"),
      call_ref: nullableStr("call_ref"),
      trigger_ref: nullableStr("trigger_ref"),
      queue_id: nullableStr("queue_id"),
    };
    this.rows.push(row);
    return row;
  }

  /**
   * The feedback of a call as `include_feedback` adds it at `summary.weave.feedback`: the rows
   * whose `weave_ref` is the call's ref, with the fields Weave's hydration asks for (no `id`).
   *
   * @example
   * ```ts
   * svc.state.feedback.forCall(referenceCalls()[0]!).map((f) => f["feedback_type"]);
   * ```
   */
  forCall(record: FakeCallRecord): Array<Record<string, unknown>> {
    const ref = `weave:///${record.project_id}/call/${record.id}`;
    const out: Array<Record<string, unknown>> = [];
    for (const row of this.rows) {
      if (row.project_id !== record.project_id || row.weave_ref !== ref) continue;
      out.push({
        feedback_type: row.feedback_type,
        weave_ref: row.weave_ref,
        payload: row.payload,
        creator: row.creator,
        created_at: row.created_at,
        wb_user_id: row.wb_user_id,
        annotation_ref: row.annotation_ref,
        runnable_ref: row.runnable_ref,
        call_ref: row.call_ref,
        trigger_ref: row.trigger_ref,
      });
    }
    return out;
  }

  /**
   * Forgets every row.
   *
   * @example
   * ```ts
   * svc.state.feedback.clear();
   * ```
   */
  clear(): void {
    this.rows = [];
  }
}
