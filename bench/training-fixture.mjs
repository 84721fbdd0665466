// A training job as an RL loop builds it: groups of trajectories whose sampled choice carries a
// logprob entry and a token id per token, shaped as vLLM returns them (`top_logprobs: []`,
// UTF-8 `bytes`). Deterministic, so every contender sends the same body. BENCH_TEXT picks the
// tokens' text: `ascii` (the default), `latin1` (one word of ten with an accent), `mixed` (one
// word of ten in Chinese: a few characters past Latin-1 in mostly ASCII text) or `cjk` (every
// word in Chinese).
const TEXTS = {
  ascii: [" the", " model", " answer", " is", " ready", " and", " we", " check", " each", " token"],
  latin1: [" the", " model", " answer", " is", " thé", " and", " we", " check", " each", " token"],
  mixed: [" the", " model", " answer", " is", " 答案", " and", " we", " check", " each", " token"],
  cjk: [" 这个", " 模型", " 答案", " 是", " 准备", " 好的", " 我们", " 检查", " 每个", " 词元"],
};
const WORDS = TEXTS[process.env.BENCH_TEXT ?? "ascii"];
if (WORDS === undefined) throw new Error(`BENCH_TEXT must be one of ${Object.keys(TEXTS).join(", ")}`);
const BYTES = WORDS.map((w) => [...Buffer.from(w, "utf8")]);

function trajectory(g, t, tokens) {
  const content = new Array(tokens);
  const ids = new Array(tokens);
  for (let i = 0; i < tokens; i++) {
    const w = (i * 7 + g * 3 + t) % WORDS.length;
    content[i] = { token: WORDS[w], logprob: -((i * 31 + t) % 997) / 100, bytes: BYTES[w], top_logprobs: [] };
    ids[i] = 100 + ((i * 7919 + g * 31 + t) % 150_000);
  }
  return {
    messages_and_choices: [
      { role: "system", content: "Answer step by step." },
      { role: "user", content: `Problem ${g}: what is ${g} * 7?` },
      {
        index: 0,
        finish_reason: "length",
        message: { role: "assistant", content: `A reply of ${tokens} tokens.` },
        logprobs: { content },
        token_ids: ids,
      },
    ],
    reward: ((g + t) % 5) / 4,
    metrics: { tokens },
    start_time: "2026-01-01T00:00:00Z",
  };
}

/** `groups` groups of `perGroup` trajectories with `tokens` sampled tokens each. */
export function trainingJobParams(groups, perGroup, tokens) {
  return {
    model_id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b",
    trajectory_groups: Array.from({ length: groups }, (_, g) => ({
      trajectories: Array.from({ length: perGroup }, (_, t) => trajectory(g, t, tokens)),
    })),
  };
}
