// Pre-rendered response bodies, shaped as the real servers send them (vLLM's chat server and a
// Weave-style trace server; see the project's research notes). Rendering them once, up front,
// keeps the server's own work per request tiny, so the timings measure the clients.
import { readFileSync } from "node:fs";

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

// The four call records of the research fixture (include_costs + include_feedback), read from
// the repository's own copy, used as templates; each rendered line gets its own id so no two
// lines are identical strings.
const CALL_TEMPLATES = readFileSync(new URL("../tests/fixtures/calls/sample-records.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));

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

// Rollout streams: what an RL rollout reads from vLLM with `logprobs: true`, `top_logprobs: k`
// and `return_token_ids: true`. Shaped as vLLM's chat stream generator (and the fake service,
// src/testing/chat/routes.ts) writes it: the role chunk carries `prompt_token_ids`, then one
// chunk per generated token with its logprob entry (token, logprob, bytes, k alternatives) and
// `token_ids: [id]`, the last one with `finish_reason` and `stop_reason`.
const ROLLOUT_PROMPT_IDS = Array.from({ length: 24 }, (_, i) => 151644 + i * 7);
const ROLLOUT_TOKENS = 64; // distinct token chunks, repeated

function rolloutToken(i) {
  const text = WORDS[i % WORDS.length];
  return { id: 1000 + i * 37, text, logprob: -((i % 17) + 1) / 23 };
}

function logprobEntry(token, top) {
  const bytes = (s) => [...Buffer.from(s, "utf8")];
  const alts = [];
  for (let k = 0; k < top; k++) {
    const alt = k === 0 ? token.text : `${token.text.trimStart()}${k}`;
    alts.push({ token: alt, logprob: token.logprob - k * 0.731, bytes: bytes(alt) });
  }
  return { token: token.text, logprob: token.logprob, bytes: bytes(token.text), top_logprobs: alts };
}

/** The SSE body of one rollout stream: the role chunk, `n` token chunks, `[DONE]`. */
export function rolloutSseBody(n, top) {
  const head = `data: {"id":"chatcmpl-5d0e7a91c3b24f68","object":"chat.completion.chunk","created":${CREATED},"model":"${MODEL}","choices":[`;
  const parts = [
    `${head}{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"prompt_token_ids":${JSON.stringify(ROLLOUT_PROMPT_IDS)}}\n\n`,
  ];
  const choice = (t, tail) =>
    `${head}{"index":0,"delta":{"content":${JSON.stringify(t.text)}},"logprobs":{"content":[${JSON.stringify(logprobEntry(t, top))}]},"finish_reason":${tail}}]}\n\n`;
  const rendered = Array.from({ length: ROLLOUT_TOKENS }, (_, i) =>
    choice(rolloutToken(i), `null,"token_ids":[${rolloutToken(i).id}]`),
  );
  for (let i = 0; i < n - 1; i++) parts.push(rendered[i % ROLLOUT_TOKENS]);
  const last = rolloutToken((n - 1) % ROLLOUT_TOKENS);
  parts.push(choice(last, `"stop","stop_reason":null,"token_ids":[${last.id}]`));
  parts.push("data: [DONE]\n\n");
  return Buffer.from(parts.join(""));
}

/** The sum of every logprob of {@link rolloutSseBody}(n, top), each token's then its alternatives', in stream order. */
export function rolloutLogprobSum(n, top) {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = logprobEntry(rolloutToken(i % ROLLOUT_TOKENS), top);
    sum += e.logprob;
    for (const a of e.top_logprobs) sum += a.logprob;
  }
  return sum;
}

/** Content characters of {@link rolloutSseBody}(n). */
export function rolloutContentLength(n) {
  let len = 0;
  for (let i = 0; i < n; i++) len += rolloutToken(i % ROLLOUT_TOKENS).text.length;
  return len;
}
