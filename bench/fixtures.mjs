// Pre-rendered response bodies, shaped as the real servers send them (vLLM's chat server and a
// Weave-style trace server; see the project's research notes). Rendering them once, up front,
// keeps the server's own work per request tiny, so the timings measure the clients.

const MODEL = "Qwen/Qwen3-8B";
const CREATED = 1767000000;

/** A non-streamed chat completion as vLLM serializes it: plain model_dump(), so every None
 * field is present as null, plus the vLLM extras. */
export function chatCompletionBody() {
  const completion = {
    id: "chatcmpl-b7c1e2f4a9d84c0e",
    object: "chat.completion",
    created: CREATED,
    model: MODEL,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content:
            "To reset your password, open Settings, choose Security, then select Reset password and follow the link we email you.",
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: [],
          reasoning: "The user asks how to reset a password; answer with the settings path.",
        },
        logprobs: null,
        finish_reason: "stop",
        stop_reason: null,
        token_ids: null,
      },
    ],
    service_tier: null,
    system_fingerprint: null,
    usage: { prompt_tokens: 42, total_tokens: 71, completion_tokens: 29, prompt_tokens_details: null },
    prompt_logprobs: null,
    prompt_token_ids: null,
    kv_transfer_params: null,
  };
  return Buffer.from(JSON.stringify(completion));
}

const WORDS = [
  " The",
  " quick",
  " answer",
  " is",
  " to",
  " open",
  " Settings",
  ",",
  " then",
  " Security",
  ".",
  " Done",
  "!",
];

/** An SSE body of exactly `n` events before `[DONE]` (n >= 2): the role chunk, n-2 content
 * chunks and the finish chunk, each `data: {...}\n\n` with one choice, as vLLM's stream
 * generator writes them (exclude_unset, so unset fields are absent). */
export function sseBody(n) {
  const head = `data: {"id":"chatcmpl-9f1e0c2a","object":"chat.completion.chunk","created":${CREATED},"model":"${MODEL}","choices":[`;
  const parts = [
    `${head}{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  ];
  // The distinct content chunks are rendered once and repeated, so a 200k-chunk body costs
  // one Buffer.concat, not 200k JSON.stringify calls.
  const content = WORDS.map(
    (w) =>
      `${head}{"index":0,"delta":{"content":${JSON.stringify(w)}},"logprobs":null,"finish_reason":null,"token_ids":null}]}\n\n`,
  );
  for (let i = 0; i < n - 2; i++) parts.push(content[i % content.length]);
  parts.push(
    `${head}{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null,"token_ids":null}]}\n\n`,
  );
  parts.push("data: [DONE]\n\n");
  return Buffer.from(parts.join(""));
}

/** Total content characters of {@link sseBody}(n), so a client can prove it read every chunk. */
export function sseContentLength(n) {
  let len = 0;
  for (let i = 0; i < n - 2; i++) len += WORDS[i % WORDS.length].length;
  return len;
}

// The four call records of the research fixture (include_costs + include_feedback), used as
// templates; each rendered line gets its own id so no two lines are identical strings.
const CALL_TEMPLATES = [
  {
    id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
    project_id: "acme/support-bot",
    op_name: "weave:///acme/support-bot/op/answer_ticket:Qm3vX8kLp2rT9sYw4zN7bC1dF6gH0jK5mR8tV2xA4cE",
    display_name: null,
    trace_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a00",
    parent_id: null,
    thread_id: "ticket-48213",
    turn_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
    started_at: "2025-03-18T17:04:12.345000Z",
    ended_at: "2025-03-18T17:04:14.102000Z",
    attributes: { weave: { client_version: "0.51.39", source: "python-sdk", os_name: "Linux", sys_version: "3.12.3" } },
    inputs: { question: "How do I reset my password?", user_tier: "pro" },
    output: { answer: "Go to Settings > Security > Reset password.", citations: ["kb/2231"] },
    exception: null,
    summary: {
      usage: {
        "gpt-4o-mini-2024-07-18": { requests: 1, prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 },
      },
      status_counts: { success: 2, error: 0 },
      weave: {
        status: "success",
        trace_name: "answer_ticket",
        latency_ms: 1757,
        costs: {
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
        },
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
    deleted_at: null,
    storage_size_bytes: null,
    total_storage_size_bytes: null,
  },
  {
    id: "0195a3c1-7e90-7c02-8f11-6a2b4c8d0e13",
    project_id: "acme/support-bot",
    op_name: "weave:///acme/support-bot/op/openai.chat.completions.create:Zp8Lq2Wn5Rt7Yv1Xb3Mc6Kd9Fg0Hj4Sa2Ue5Ti8Ow7Qr",
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
      usage: {
        "gpt-4o-mini-2024-07-18": { requests: 1, prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 },
      },
      weave: {
        status: "success",
        trace_name: "openai.chat.completions.create",
        latency_ms: 1376,
        costs: {
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
        },
        feedback: [],
      },
    },
    wb_user_id: "VXNlcjoxMjM0NTY=",
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
    storage_size_bytes: null,
    total_storage_size_bytes: null,
  },
  {
    id: "0195a3c2-0a41-7d55-b3e2-1c9f7a6e5d24",
    project_id: "acme/support-bot",
    op_name: "weave:///acme/support-bot/op/openai.chat.completions.create:Zp8Lq2Wn5Rt7Yv1Xb3Mc6Kd9Fg0Hj4Sa2Ue5Ti8Ow7Qr",
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
    deleted_at: null,
    storage_size_bytes: null,
    total_storage_size_bytes: null,
  },
  {
    id: "0195a3c2-1b77-7e60-a4d3-2d0e8b7f6c35",
    project_id: "acme/support-bot",
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
    deleted_at: null,
    storage_size_bytes: null,
    total_storage_size_bytes: null,
  },
];

/** `count` distinct JSONL lines (each ending in `\n`) cycling through the templates. */
export function callLines(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    const rec = { ...CALL_TEMPLATES[i % CALL_TEMPLATES.length] };
    rec.id = `0195a3c1-7d2e-7b41-9a0c-${i.toString(16).padStart(12, "0")}`;
    lines.push(Buffer.from(`${JSON.stringify(rec)}\n`));
  }
  return lines;
}
