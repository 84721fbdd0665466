/**
 * Four reference call records, made from Weave's `CallSchema` (`wandb/weave`
 * `weave/trace_server/trace_server_interface.py`; ids, digests and users invented), shaped like
 * a `/calls/stream_query` body with `include_costs` and `include_feedback`. The store strips
 * `summary.weave` on insert and derives it again on read, exactly like the real server.
 */
import type { FakeCallRecord } from "../types.js";

/**
 * Project of the reference records and the seeded annotation queue.
 *
 * @example
 * ```ts
 * await fetch(`${svc.url}/calls/stream_query`, { method: "POST", headers: { authorization: `Basic ${btoa(`${svc.username}:${svc.password}`)}` }, body: JSON.stringify({ project_id: SEED_PROJECT_ID }) });
 * ```
 */
export const SEED_PROJECT_ID = "acme/support-bot";

const gpt4oMiniCosts = {
  "gpt-4o-mini-2024-07-18": {
    requests: 1,
    prompt_tokens: 412,
    completion_tokens: 58,
    total_tokens: 470,
    prompt_tokens_total_cost: 0.0000618,
    completion_tokens_total_cost: 0.0000348,
    prompt_token_cost: 1.5e-7,
    completion_token_cost: 6e-7,
    prompt_token_cost_unit: "USD",
    completion_token_cost_unit: "USD",
    effective_date: "2024-07-18 00:00:00",
    provider_id: "openai",
    pricing_level: "default",
    pricing_level_id: "default",
    created_at: "2024-08-01 00:00:00",
    created_by: "system",
  },
};

const gpt4oMiniUsage = {
  "gpt-4o-mini-2024-07-18": { requests: 1, prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 },
};

const nullTail = { deleted_at: null, storage_size_bytes: null, total_storage_size_bytes: null };

/**
 * The reference records, freshly built on every call so tests can mutate them freely.
 *
 * @example
 * ```ts
 * const [root] = referenceCalls();
 * root!.id; // "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01"
 * ```
 */
export function referenceCalls(): FakeCallRecord[] {
  return [
    {
      id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
      project_id: SEED_PROJECT_ID,
      op_name: "weave:///acme/support-bot/op/answer_ticket:Qm3vX8kLp2rT9sYw4zN7bC1dF6gH0jK5mR8tV2xA4cE",
      display_name: null,
      trace_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a00",
      parent_id: null,
      thread_id: "ticket-48213",
      turn_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
      started_at: "2025-03-18T17:04:12.345000Z",
      ended_at: "2025-03-18T17:04:14.102000Z",
      attributes: {
        weave: { client_version: "0.51.39", source: "python-sdk", os_name: "Linux", sys_version: "3.12.3" },
      },
      inputs: { question: "How do I reset my password?", user_tier: "pro" },
      output: { answer: "Go to Settings > Security > Reset password.", citations: ["kb/2231"] },
      exception: null,
      summary: {
        usage: gpt4oMiniUsage,
        status_counts: { success: 2, error: 0 },
        weave: {
          status: "success",
          trace_name: "answer_ticket",
          latency_ms: 1757,
          costs: gpt4oMiniCosts,
          feedback: [
            {
              feedback_type: "wandb.reaction.1",
              weave_ref: "weave:///acme/support-bot/call/0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
              payload: { emoji: "👍", detoned: "👍", detoned_alias: ":thumbs_up:" },
              creator: null,
              created_at: "2025-03-18T17:06:40.118000Z",
              wb_user_id: "VXNlcjoxMjM0NTY=",
            },
          ],
        },
      },
      wb_user_id: "VXNlcjoxMjM0NTY=",
      wb_run_id: null,
      wb_run_step: null,
      wb_run_step_end: null,
      ...nullTail,
    },
    {
      id: "0195a3c1-7e90-7c02-8f11-6a2b4c8d0e13",
      project_id: SEED_PROJECT_ID,
      op_name:
        "weave:///acme/support-bot/op/openai.chat.completions.create:Zp8Lq2Wn5Rt7Yv1Xb3Mc6Kd9Fg0Hj4Sa2Ue5Ti8Ow7Qr",
      display_name: null,
      trace_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a00",
      parent_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
      thread_id: "ticket-48213",
      turn_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
      started_at: "2025-03-18T17:04:12.611000Z",
      ended_at: "2025-03-18T17:04:13.987000Z",
      attributes: { weave: { client_version: "0.51.39", source: "python-sdk" } },
      inputs: {
        model: "gpt-4o-mini",
        temperature: 0.2,
        messages: [
          { role: "system", content: "You are a support agent." },
          { role: "user", content: "How do I reset my password?" },
        ],
      },
      output: {
        id: "chatcmpl-B2x9",
        object: "chat.completion",
        model: "gpt-4o-mini-2024-07-18",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: "Go to Settings > Security > Reset password." },
          },
        ],
        usage: { prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 },
      },
      exception: null,
      summary: {
        usage: gpt4oMiniUsage,
        weave: {
          status: "success",
          trace_name: "openai.chat.completions.create",
          latency_ms: 1376,
          costs: gpt4oMiniCosts,
          feedback: [],
        },
      },
      wb_user_id: "VXNlcjoxMjM0NTY=",
      wb_run_id: null,
      wb_run_step: null,
      wb_run_step_end: null,
      ...nullTail,
    },
    {
      id: "0195a3c2-0a41-7d55-b3e2-1c9f7a6e5d24",
      project_id: SEED_PROJECT_ID,
      op_name:
        "weave:///acme/support-bot/op/openai.chat.completions.create:Zp8Lq2Wn5Rt7Yv1Xb3Mc6Kd9Fg0Hj4Sa2Ue5Ti8Ow7Qr",
      display_name: "classify-intent",
      trace_id: "0195a3c2-0a41-7d55-b3e2-1c9f7a6e5d20",
      parent_id: null,
      thread_id: null,
      turn_id: null,
      started_at: "2025-03-18T17:05:01.002000Z",
      ended_at: "2025-03-18T17:05:01.420000Z",
      attributes: {},
      inputs: { model: "gpt-4o", messages: [{ role: "user", content: "Classify: refund please" }] },
      output: null,
      exception:
        "RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o', 'type': 'requests'}}",
      summary: { weave: { status: "error", display_name: "classify-intent", latency_ms: 418, feedback: [] } },
      wb_user_id: "VXNlcjoxMjM0NTY=",
      wb_run_id: "acme/support-bot/k3j2h1g0",
      wb_run_step: 7,
      wb_run_step_end: 7,
      ...nullTail,
    },
    {
      id: "0195a3c2-1b77-7e60-a4d3-2d0e8b7f6c35",
      project_id: SEED_PROJECT_ID,
      op_name: "weave:///acme/support-bot/op/retrieve_docs:Hn4Jm6Kp8Lr0Ns2Pt4Qv6Rx8Sz0Tb2Uc4Vd6We8Xf0",
      display_name: null,
      trace_id: "0195a3c2-1b77-7e60-a4d3-2d0e8b7f6c30",
      parent_id: null,
      thread_id: null,
      turn_id: null,
      started_at: "2025-03-18T17:05:30.000000Z",
      ended_at: null,
      attributes: { env: "staging" },
      inputs: { query: "refund policy", top_k: 5 },
      output: null,
      exception: null,
      summary: { weave: { status: "running", trace_name: "retrieve_docs", feedback: [] } },
      wb_user_id: "VXNlcjo3ODkw",
      wb_run_id: null,
      wb_run_step: null,
      wb_run_step_end: null,
      ...nullTail,
    },
  ];
}
