/**
 * Deterministic, realistic call records: traces of three calls (a root op, a retrieval child and
 * an LLM child) with usage, threads, runs, errors and running calls sprinkled in.
 */

import type { FakeCallRecord } from "../types.js";
import { deterministicUuid7, hash32, isoMicros } from "../util.js";
import { referenceCalls, SEED_PROJECT_ID } from "./seed-reference.js";

/**
 * Options of {@link generateCall} / {@link generateCalls}.
 */
export interface GenerateCallsOptions {
  /** Default `"acme/support-bot"`. */
  projectId?: string;
  /** Start time of the first trace, ms since epoch. Default 2025-03-19T00:00:00Z. */
  startTime?: number;
}

/**
 * Users that own generated calls (ids shaped like W&B's).
 *
 * @example
 * ```ts
 * const filter = { svc_user_ids: [SEED_USER_IDS[1]] };
 * ```
 */
export const SEED_USER_IDS = ["VXNlcjoxMjM0NTY=", "VXNlcjo3ODkw", "VXNlcjo0NDIx"] as const;

const QUESTIONS = [
  "How do I reset my password?",
  "Can I get a refund for my last order?",
  "Where is my package?",
  "How do I change my billing address?",
  "Why was my card declined?",
  "How do I export my data?",
  "Can I upgrade to the pro plan mid-cycle?",
  "How do I delete my account?",
];
const ANSWERS = [
  "Go to Settings > Security > Reset password.",
  "Refunds are available within 30 days from Orders > Request refund.",
  "Track it from Orders > Shipping status.",
  "Open Billing > Address and save the new one.",
  "Your bank declined the charge; try another card or contact the bank.",
  "Use Settings > Privacy > Export data.",
  "Yes, upgrades are prorated from today.",
  "Go to Settings > Account > Delete account.",
];
const MODELS = ["gpt-4o-mini-2024-07-18", "gpt-4o-2024-08-06", "Qwen/Qwen3-8B"] as const;
const TIERS = ["free", "pro", "enterprise"];

const opRefCache = new Map<string, string>();

function opRef(projectId: string, name: string): string {
  const cacheKey = `${projectId}\u0000${name}`;
  const cached = opRefCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const digest = hash32(name).toString(36).padStart(7, "0") + hash32(`${name}#`).toString(36).padStart(7, "0");
  const ref = `weave:///${projectId}/op/${name}:${digest}`;
  if (opRefCache.size < 1000) opRefCache.set(cacheKey, ref);
  return ref;
}

function callId(projectId: string, index: number, startMs: number): string {
  return deterministicUuid7(startMs, `${projectId}:call:${index}`);
}

function traceTiming(index: number, base: number): { rootStart: number; trace: number; pos: number } {
  const trace = Math.floor(index / 3);
  const rootStart = base + trace * 45_000 + (hash32(`t${trace}`) % 20_000);
  return { rootStart, trace, pos: index % 3 };
}

/**
 * The `index`-th generated record. The same index and options always give the same record;
 * records of consecutive indexes form traces of three (root, retrieval, LLM call) whose
 * `started_at` grows with the index.
 *
 * @example
 * ```ts
 * const call = generateCall(0); // a root "answer_ticket" call of acme/support-bot
 * ```
 */
export function generateCall(index: number, options: GenerateCallsOptions = {}): FakeCallRecord {
  const projectId = options.projectId ?? SEED_PROJECT_ID;
  const base = options.startTime ?? Date.UTC(2025, 2, 19);
  const { rootStart, trace, pos } = traceTiming(index, base);
  const h = hash32(`${projectId}:${trace}`);
  const rootIndex = index - pos;
  const rootId = callId(projectId, rootIndex, rootStart);
  const traceId = deterministicUuid7(rootStart, `${projectId}:trace:${trace}`);
  const question = QUESTIONS[h % QUESTIONS.length]!;
  const answer = ANSWERS[h % ANSWERS.length]!;
  const model = MODELS[(h >>> 3) % MODELS.length]!;
  const isError = trace % 13 === 5;
  const isRunning = trace % 29 === 11;
  const user = SEED_USER_IDS[(h >>> 5) % SEED_USER_IDS.length]!;
  const runId = trace % 5 === 0 ? `${projectId}/run-${Math.floor(trace / 50)}` : null;
  const threadId = trace % 2 === 0 ? `ticket-${40000 + (trace % 40)}` : null;
  const promptTokens = 180 + (h % 400);
  const completionTokens = 20 + ((h >>> 9) % 120);
  const usage = {
    [model]: {
      requests: 1,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };

  const start = rootStart + pos * 137;
  const rootLatency = 600 + (h % 2400);
  const childLatency = [rootLatency, 40 + (h % 200), 300 + (h % 1800)][pos]!;
  const running = isRunning && pos !== 1;
  const ended = running ? null : start + childLatency;
  const failing = isError && pos === 2;

  const common = {
    id: pos === 0 ? rootId : callId(projectId, index, start),
    project_id: projectId,
    trace_id: traceId,
    parent_id: pos === 0 ? null : rootId,
    thread_id: threadId,
    turn_id: threadId === null ? null : rootId,
    started_at: isoMicros(start),
    ended_at: ended === null ? null : isoMicros(ended),
    attributes: {
      weave: { client_version: "0.51.39", source: "python-sdk", os_name: "Linux", sys_version: "3.12.3" },
      env: trace % 7 === 3 ? "staging" : "prod",
    },
    wb_user_id: user,
    wb_run_id: runId,
    wb_run_step: runId === null ? null : trace % 50,
    wb_run_step_end: runId === null ? null : trace % 50,
    deleted_at: null,
    storage_size_bytes: null,
    total_storage_size_bytes: null,
  };

  if (pos === 0) {
    return {
      ...common,
      op_name: opRef(projectId, "answer_ticket"),
      display_name: trace % 17 === 4 ? "nightly-eval" : null,
      inputs: { question, user_tier: TIERS[h % TIERS.length] },
      output: running || isError ? null : { answer, citations: [`kb/${2000 + (h % 500)}`] },
      exception: isError ? "RuntimeError: downstream LLM call failed" : null,
      summary: {
        usage,
        status_counts: { success: isError ? 1 : 2, error: isError ? 1 : 0 },
        weave: trace % 4 === 1 ? { feedback: [reaction(projectId, rootId, user, start + 90_000)] } : {},
      },
    };
  }
  if (pos === 1) {
    return {
      ...common,
      op_name: opRef(projectId, "retrieve_docs"),
      display_name: null,
      inputs: { query: question.toLowerCase().replace(/\?$/, ""), top_k: 3 + (h % 5) },
      output: { documents: [`kb/${2000 + (h % 500)}`, `kb/${2100 + (h % 300)}`] },
      exception: null,
      summary: {},
    };
  }
  return {
    ...common,
    op_name: opRef(projectId, "openai.chat.completions.create"),
    display_name: null,
    inputs: {
      model: model.replace(/-\d{4}-\d{2}-\d{2}$/, ""),
      temperature: ((h >>> 7) % 10) / 10,
      messages: [
        { role: "system", content: "You are a support agent." },
        { role: "user", content: question },
      ],
    },
    output:
      running || failing
        ? null
        : {
            id: `chatcmpl-${h.toString(36)}`,
            object: "chat.completion",
            model,
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: answer } }],
            usage: usage[model],
          },
    exception: failing
      ? `RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for ${model}'}}`
      : null,
    summary: running || failing ? {} : { usage },
  };
}

function reaction(projectId: string, callIdValue: string, user: string, at: number): Record<string, unknown> {
  return {
    feedback_type: "wandb.reaction.1",
    weave_ref: `weave:///${projectId}/call/${callIdValue}`,
    payload: { emoji: "👍", detoned: "👍", detoned_alias: ":thumbs_up:" },
    creator: null,
    created_at: isoMicros(at),
    wb_user_id: user,
  };
}

/**
 * Lazily generates `count` records (indexes `0..count-1`), for cheap bulk inserts.
 *
 * @example
 * ```ts
 * svc.calls.insert(generateCalls(10_000, { projectId: "acme/bench" }));
 * ```
 */
export function* generateCalls(count: number, options: GenerateCallsOptions = {}): Generator<FakeCallRecord> {
  for (let i = 0; i < count; i++) yield generateCall(i, options);
}

/**
 * Project of the few seeded records that belong elsewhere (to test project isolation).
 *
 * @example
 * ```ts
 * const body = { project_id: SEED_OTHER_PROJECT_ID }; // 12 records
 * ```
 */
export const SEED_OTHER_PROJECT_ID = "acme/other-project";

/**
 * The default seed: the four reference records, `count` generated records of
 * `acme/support-bot`, and 12 of `acme/other-project`.
 *
 * @example
 * ```ts
 * const records = seedCallRecords(300);
 * ```
 */
export function seedCallRecords(count = 300): FakeCallRecord[] {
  return [
    ...referenceCalls(),
    ...generateCalls(count),
    ...generateCalls(12, { projectId: SEED_OTHER_PROJECT_ID, startTime: Date.UTC(2025, 2, 20) }),
  ];
}
