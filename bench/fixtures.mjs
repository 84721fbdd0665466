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
