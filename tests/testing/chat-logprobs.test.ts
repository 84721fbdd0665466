/**
 * The fake's logprobs and token ids, as an RL loop reads them: one logprob entry and one token
 * id per completion token, in every kind of reply (n choices, reasoning, tool calls, stop
 * strings, length cut), plain and streamed alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService } from "../../src/testing/index.js";
import { chat, readStream } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false });
});
afterAll(() => svc.close());

interface Choice {
  index: number;
  logprobs: { content: Array<{ token: string; top_logprobs: unknown[] }> } | null;
  token_ids: number[] | null;
  finish_reason: string;
}

const sampling = { logprobs: true, top_logprobs: 3, return_token_ids: true, n: 3 };
const weather = {
  type: "function",
  function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};

const cases: Array<[string, Record<string, unknown>]> = [
  ["plain replies", { messages: [{ role: "user", content: "Tell me something" }] }],
  ["reasoning", { messages: [{ role: "user", content: "Think first" }], reasoning_effort: "low" }],
  ["a tool call", { messages: [{ role: "user", content: "weather in Paris" }], tools: [weather] }],
  ["a stop string", { messages: [{ role: "user", content: "echo alpha beta gamma delta" }], stop: [" gamma"] }],
  ["a length cut", { messages: [{ role: "user", content: "Tell me more" }], max_completion_tokens: 4 }],
];

describe("logprobs and token ids of the fake", () => {
  it.each(cases)("%s: as many logprobs and top alternatives as token ids, summing to usage", async (_, body) => {
    const res = await chat(svc, { ...sampling, ...body });
    expect(res.status).toBe(200);
    const completion = (await res.json()) as { choices: Choice[]; usage: { completion_tokens: number } };
    let total = 0;
    for (const choice of completion.choices) {
      expect(choice.token_ids!.length).toBeGreaterThan(0);
      expect(choice.logprobs!.content).toHaveLength(choice.token_ids!.length);
      for (const entry of choice.logprobs!.content) expect(entry.top_logprobs).toHaveLength(3);
      total += choice.token_ids!.length;
    }
    expect(completion.choices).toHaveLength(3);
    expect(completion.usage.completion_tokens).toBe(total);
  });

  it.each(cases)("%s: streamed, each choice's token ids and logprobs add up to the plain reply's", async (_, body) => {
    const plain = (await (await chat(svc, { ...sampling, ...body })).json()) as { choices: Choice[] };
    const { chunks, done } = await readStream(await chat(svc, { ...sampling, ...body, stream: true }));
    expect(done).toBe(true);
    for (const choice of plain.choices) {
      const mine = chunks.flatMap((c) => c.choices.filter((ch) => ch.index === choice.index));
      const ids = mine.flatMap((ch) => ch.token_ids ?? []);
      const logprobs = mine.flatMap((ch) => ch.logprobs?.content ?? []);
      expect(ids).toEqual(choice.token_ids);
      expect(logprobs).toEqual(choice.logprobs!.content);
      // A chunk that carries tokens carries exactly one logprob entry per token.
      for (const ch of mine) expect(ch.logprobs?.content.length ?? 0).toBe(ch.token_ids?.length ?? 0);
    }
  });

  it("without logprobs or token ids, the reply carries neither", async () => {
    const res = await chat(svc, { messages: [{ role: "user", content: "hi" }] });
    const [choice] = ((await res.json()) as { choices: Choice[] }).choices;
    expect(choice!.logprobs).toBeNull();
    expect(choice!.token_ids).toBeNull();
  });
});
