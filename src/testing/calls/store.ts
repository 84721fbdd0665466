/**
 * In-memory call storage with the trace server's read-time derivation of `summary.weave`
 * (status, latency, trace name; costs and feedback only on request).
 */

import type { FakeCallRecord } from "../types.js";
import { compareTimes, isRecord } from "../util.js";
import { latencyMs, storedSize } from "./derived.js";
import { generateCall } from "./seed.js";

/**
 * A stored call: the record without derived fields, plus costs/feedback kept aside.
 */
export interface StoredCall {
  record: FakeCallRecord;
  costs: Record<string, unknown> | undefined;
  feedback: unknown[] | undefined;
}

/**
 * Which optional members a read adds (the `include_*` flags of the query).
 */
export interface DeriveFlags {
  costs: boolean;
  feedback: boolean;
  storageSize: boolean;
  totalStorageSize: boolean;
  usernames: boolean;
}

const PRICES: Record<string, { prompt: number; completion: number; provider: string }> = {
  "gpt-4o-mini-2024-07-18": { prompt: 1.5e-7, completion: 6e-7, provider: "openai" },
  "gpt-4o-2024-08-06": { prompt: 2.5e-6, completion: 1e-5, provider: "openai" },
};
const DEFAULT_PRICE = { prompt: 1e-7, completion: 2e-7, provider: "coreweave" };

const USERNAMES: Record<string, string> = {
  "VXNlcjoxMjM0NTY=": "alice",
  VXNlcjo3ODkw: "bob",
  VXNlcjo0NDIx: "carol",
};

/**
 * Splits a record into what the server stores and the costs/feedback it only returns on
 * request; any `summary.weave` the writer sent is dropped, as the server recomputes it.
 */
export function toStoredCall(record: FakeCallRecord): StoredCall {
  const summary = isRecord(record["summary"]) ? { ...record["summary"] } : null;
  const weave = summary !== null && isRecord(summary["weave"]) ? summary["weave"] : undefined;
  if (summary !== null) delete summary["weave"];
  return {
    record: { ...record, summary },
    costs: weave !== undefined && isRecord(weave["costs"]) ? weave["costs"] : undefined,
    feedback: weave !== undefined && Array.isArray(weave["feedback"]) ? weave["feedback"] : undefined,
  };
}

function statusOf(record: FakeCallRecord): string {
  if (record["exception"] !== null && record["exception"] !== undefined) return "error";
  if (record["ended_at"] === null || record["ended_at"] === undefined) return "running";
  const counts = isRecord(record["summary"]) ? record["summary"]["status_counts"] : undefined;
  if (isRecord(counts) && typeof counts["error"] === "number" && counts["error"] > 0) return "descendant_error";
  return "success";
}

/**
 * The trace name Weave derives from an op name (the op's name without its ref and version).
 *
 * @example
 * ```ts
 * shortOpName("weave:///acme/bot/op/answer:abc"); // "answer"
 * ```
 */
export function shortOpName(opName: string): string {
  const last = opName.startsWith("weave:///") ? (opName.split("/").at(-1) ?? opName) : opName;
  return last.split(":")[0] ?? last;
}

function costsFromUsage(usage: unknown): Record<string, unknown> {
  const costs: Record<string, unknown> = {};
  if (!isRecord(usage)) return costs;
  for (const [model, u] of Object.entries(usage)) {
    if (!isRecord(u)) continue;
    const price = PRICES[model] ?? DEFAULT_PRICE;
    const prompt = typeof u["prompt_tokens"] === "number" ? u["prompt_tokens"] : 0;
    const completion = typeof u["completion_tokens"] === "number" ? u["completion_tokens"] : 0;
    costs[model] = {
      ...u,
      prompt_tokens_total_cost: prompt * price.prompt,
      completion_tokens_total_cost: completion * price.completion,
      prompt_token_cost: price.prompt,
      completion_token_cost: price.completion,
      prompt_token_cost_unit: "USD",
      completion_token_cost_unit: "USD",
      effective_date: "2024-07-18 00:00:00",
      provider_id: price.provider,
      pricing_level: "default",
      pricing_level_id: "default",
      created_at: "2024-08-01 00:00:00",
      created_by: "system",
    };
  }
  return costs;
}

/**
 * The record as the server returns it: derived `summary.weave`, plus the members the flags ask
 * for. `traceSize` gives the total storage size of a trace (for `include_total_storage_size`).
 */
export function deriveCall(
  stored: StoredCall,
  flags: DeriveFlags,
  traceSize?: (traceId: string) => number,
  feedbackOf?: (record: FakeCallRecord) => unknown[],
): FakeCallRecord {
  const { record } = stored;
  const weave: Record<string, unknown> = { status: statusOf(record) };
  const displayName = record["display_name"];
  if (typeof displayName === "string" && displayName !== "") weave["display_name"] = displayName;
  else weave["trace_name"] = shortOpName(record.op_name);
  const latency = typeof record["ended_at"] === "string" ? latencyMs(record.started_at, record["ended_at"]) : undefined;
  if (latency !== undefined) weave["latency_ms"] = latency;
  const summary = isRecord(record["summary"]) ? record["summary"] : {};
  if (flags.costs && (stored.costs !== undefined || isRecord(summary["usage"]))) {
    weave["costs"] = stored.costs ?? costsFromUsage(summary["usage"]);
  }
  if (flags.feedback) weave["feedback"] = [...(stored.feedback ?? []), ...(feedbackOf?.(record) ?? [])];
  const out: FakeCallRecord = { ...record, summary: { ...summary, weave } };
  out["storage_size_bytes"] = flags.storageSize ? storedSize(record) : null;
  out["total_storage_size_bytes"] =
    flags.totalStorageSize && record["parent_id"] === null
      ? (traceSize?.(record.trace_id) ?? storedSize(record))
      : null;
  if (flags.usernames) {
    const userId = record["wb_user_id"];
    out["wb_username"] =
      typeof userId === "string" ? (USERNAMES[userId] ?? `user-${userId.slice(0, 6).toLowerCase()}`) : null;
  }
  return out;
}

/**
 * Synthetic records made on the fly for one project (never stored).
 */
export interface SyntheticCalls {
  count: number;
  projectId: string;
}

/** First synthetic start time: after any seeded record, so default order is stored then synthetic. */
const SYNTHETIC_START = Date.UTC(2026, 0, 1);

/**
 * The calls of one fake service: stored records (kept in `started_at`, `id` order) followed by
 * synthetic ones.
 */
export class CallStore {
  private stored: StoredCall[] = [];
  private sorted = true;
  private traceSizes: Map<string, number> | undefined;
  synthetic: SyntheticCalls | undefined;
  /** Feedback created through the API on a call, added to what `include_feedback` returns. */
  feedbackOf: ((record: FakeCallRecord) => unknown[]) | undefined;

  /**
   * A stored call of a project by id, as stored.
   */
  find(projectId: string, id: string): FakeCallRecord | undefined {
    for (const s of this.stored) if (s.record.id === id && s.record.project_id === projectId) return s.record;
    return undefined;
  }

  /**
   * Stores records (any iterable, consumed lazily); returns how many were added.
   */
  insert(records: Iterable<FakeCallRecord>): number {
    let added = 0;
    for (const record of records) {
      const stored = toStoredCall(record);
      this.stored.push(stored);
      added += 1;
    }
    if (added > 0) {
      this.sorted = false;
      this.traceSizes = undefined;
    }
    return added;
  }

  /**
   * Removes every stored record (synthetic ones are configuration and stay).
   */
  clear(): void {
    this.stored = [];
    this.traceSizes = undefined;
  }

  /**
   * How many records are stored (synthetic ones excluded).
   */
  get size(): number {
    return this.stored.length;
  }

  /**
   * Stored records as inserted (without derived fields), in default order.
   */
  records(): FakeCallRecord[] {
    return this.ordered().map((s) => s.record);
  }

  private ordered(): StoredCall[] {
    if (!this.sorted) {
      // By time (not text: Weave drops a zero fraction), then by id, as Weave orders them.
      this.stored.sort(
        (a, b) =>
          compareTimes(a.record.started_at, b.record.started_at) ||
          (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0),
      );
      this.sorted = true;
    }
    return this.stored;
  }

  /**
   * Total storage size of every stored call of a trace (see `storedSize`).
   */
  traceSize(traceId: string): number {
    if (this.traceSizes === undefined) {
      this.traceSizes = new Map();
      for (const s of this.stored) {
        this.traceSizes.set(s.record.trace_id, (this.traceSizes.get(s.record.trace_id) ?? 0) + storedSize(s.record));
      }
    }
    return this.traceSizes.get(traceId) ?? 0;
  }

  /**
   * Every call of a project in default order (`started_at`, then `id`), lazily: synthetic ones
   * are generated one at a time.
   */
  *scan(projectId: string): Generator<StoredCall> {
    yield* this.scanFrom(this.ordered(), projectId);
  }

  private *scanFrom(stored: readonly StoredCall[], projectId: string): Generator<StoredCall> {
    for (const s of stored) if (s.record.project_id === projectId) yield s;
    const synthetic = this.synthetic;
    if (synthetic !== undefined && synthetic.projectId === projectId) {
      for (let i = 0; i < synthetic.count; i++) {
        yield toStoredCall(generateCall(i, { projectId, startTime: SYNTHETIC_START }));
      }
    }
  }
}
