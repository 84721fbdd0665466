import { inspect, types } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accumulateChatCompletion, ChatCompletionAccumulator } from "../../../src/wire/chat/stream/accumulate.js";
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionChunkChoice,
  type ChatCompletionTokenLogprob,
  normalizeChunk,
} from "../../../src/wire/chat/types.js";
import { readTranscript, transcriptChunks } from "./sse-fixture.js";

const MODEL = "Qwen/Qwen3-8B";

function chunk(choices: ChatCompletionChunkChoice[], extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk {
  return { id: "chatcmpl-x", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra };
}

describe("ChatCompletionAccumulator on the transcripts of the research note", () => {
  it("A: plain text", () => {
    expect(accumulateChatCompletion(transcriptChunks("transcript-a-plain.sse"))).toStrictEqual({
      id: "chatcmpl-9f1",
      object: "chat.completion",
      created: 1767000000,
      model: MODEL,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi!" },
          logprobs: null,
          finish_reason: "stop",
          stop_reason: null,
        },
      ],
    } satisfies ChatCompletion);
  });

  const expectedB: ChatCompletion = {
    id: "chatcmpl-7a2",
    object: "chat.completion",
    created: 1767000001,
    model: MODEL,
    prompt_token_ids: [151644, 872, 198],
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "",
          reasoning: "User wants weather",
          tool_calls: [
            {
              id: "chatcmpl-tool-3c1",
              type: "function",
              function: { name: "get_weather", arguments: '{"city": "Paris"}' },
            },
          ],
        },
        logprobs: null,
        finish_reason: "tool_calls",
        stop_reason: null,
        token_ids: [1474, 6801, 151657, 515, 4913, 8926, 151658],
      },
    ],
  };

  it("B: reasoning, a tool call in fragments, token ids and prompt token ids", () => {
    expect(accumulateChatCompletion(transcriptChunks("transcript-b-reasoning-tool.sse"))).toStrictEqual(expectedB);
  });

  it("B with the older reasoning_content name, normalized or not", () => {
    const renamed = () =>
      transcriptChunks("transcript-b-reasoning-tool.sse").map((c) => {
        const d = c.choices[0]!.delta;
        if (d.reasoning !== undefined) {
          d.reasoning_content = d.reasoning;
          delete d.reasoning;
        }
        return c;
      });
    const withBoth = {
      ...expectedB,
      choices: [
        {
          ...expectedB.choices[0]!,
          message: { ...expectedB.choices[0]!.message, reasoning_content: "User wants weather" },
        },
      ],
    };
    expect(accumulateChatCompletion(renamed().map((c) => normalizeChunk(c)))).toStrictEqual(withBoth);
    expect(accumulateChatCompletion(renamed())).toStrictEqual(withBoth);
  });

  it("C: n=2 interleaved with continuous usage; the final usage chunk wins", () => {
    const completion = accumulateChatCompletion(transcriptChunks("transcript-c-n2-usage.sse"));
    expect(completion.choices).toStrictEqual([
      {
        index: 0,
        message: { role: "assistant", content: "No" },
        logprobs: null,
        finish_reason: "length",
        stop_reason: null,
      },
      {
        index: 1,
        message: { role: "assistant", content: "Yes." },
        logprobs: null,
        finish_reason: "stop",
        stop_reason: null,
      },
    ]);
    expect(completion.usage).toStrictEqual({ prompt_tokens: 12, total_tokens: 15, completion_tokens: 3 });
    expect(completion.id).toBe("chatcmpl-c3");
  });

  it("D: the chunks before an in-stream error give a partial, unfinished completion", () => {
    const events = readTranscript("transcript-d-error.sse");
    expect(events.map((e) => e.kind)).toEqual(["chunk", "chunk", "error", "done"]);
    const completion = accumulateChatCompletion(transcriptChunks("transcript-d-error.sse"));
    expect(completion.choices).toStrictEqual([
      {
        index: 0,
        message: { role: "assistant", content: "The" },
        logprobs: null,
        finish_reason: null,
        stop_reason: null,
      },
    ]);
  });
});

describe("ChatCompletionAccumulator details", () => {
  it("merges two tools split into many argument fragments, interleaved", () => {
    const args0 = ['{"ci', 'ty": ', '"Par', 'is"}'];
    const args1 = ["{", '"tz"', ': "CET"', "}"];
    const acc = new ChatCompletionAccumulator();
    acc.add(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
    acc.add(
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } },
            ],
          },
        },
      ]),
    );
    acc.add(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time" } }] },
        },
      ]),
    );
    for (let i = 0; i < 4; i++) {
      // Both tools in one delta, and in reverse order, as some parsers emit them.
      acc.add(
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 1, function: { arguments: args1[i]! } },
                { index: 0, function: { arguments: args0[i]! } },
              ],
            },
          },
        ]),
      );
    }
    acc.add(chunk([{ index: 0, delta: {}, finish_reason: "tool_calls", stop_reason: null }]));
    const message = acc.finish().choices[0]!.message;
    expect(message.tool_calls).toStrictEqual([
      { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
      { id: "call_b", type: "function", function: { name: "get_time", arguments: '{"tz": "CET"}' } },
    ]);
    expect(JSON.parse(message.tool_calls![1]!.function.arguments)).toEqual({ tz: "CET" });
  });

  it("appends logprobs entries and token ids, keeps stop_reason and a token-id stop", () => {
    const lp = (token: string, logprob: number) => ({
      token,
      logprob,
      bytes: [...Buffer.from(token)],
      top_logprobs: [],
    });
    const acc = new ChatCompletionAccumulator();
    acc.add(
      chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null }], { prompt_token_ids: [1, 2] }),
    );
    acc.add(chunk([{ index: 0, delta: { content: "He" }, logprobs: { content: [lp("He", -0.1)] }, token_ids: [10] }]));
    acc.add(
      chunk(
        [
          {
            index: 0,
            delta: { content: "llo" },
            logprobs: { content: [lp("llo", -0.2), lp("!", -0.3)] },
            token_ids: [11, 12],
          },
        ],
        { prompt_token_ids: [9, 9] },
      ),
    );
    acc.add(
      chunk([
        {
          index: 0,
          delta: {},
          logprobs: { content: [] },
          finish_reason: "stop",
          stop_reason: 151645,
          token_ids: [151645],
        },
      ]),
    );
    const completion = acc.finish();
    const choice = completion.choices[0]!;
    expect(choice.logprobs).toStrictEqual({ content: [lp("He", -0.1), lp("llo", -0.2), lp("!", -0.3)] });
    expect(choice.token_ids).toEqual([10, 11, 12, 151645]);
    expect(choice.stop_reason).toBe(151645);
    expect(choice.finish_reason).toBe("stop");
    expect(completion.prompt_token_ids).toEqual([1, 2]);
  });

  it("keeps unknown fields of chunks, choices and deltas, and the system fingerprint and tier", () => {
    const acc = new ChatCompletionAccumulator();
    acc.add(
      chunk([{ index: 0, delta: { role: "assistant", content: "", vendor_delta: 1 } }], {
        prompt_text: "<|im_start|>user",
        system_fingerprint: "fp_1",
        service_tier: "default",
      }),
    );
    acc.add(
      chunk([{ index: 0, delta: { content: "x" }, finish_reason: "repetition", routed_experts: "AAA" }], {
        metrics: { ttft: 0.1 },
      }),
    );
    const completion = acc.finish();
    expect(completion).toMatchObject({
      prompt_text: "<|im_start|>user",
      metrics: { ttft: 0.1 },
      system_fingerprint: "fp_1",
      service_tier: "default",
      object: "chat.completion",
    });
    expect(completion.choices[0]).toMatchObject({ routed_experts: "AAA", finish_reason: "repetition" });
    expect(completion.choices[0]!.message).toMatchObject({ vendor_delta: 1, content: "x" });
  });

  it("keeps the streamed role, refusal and legacy function_call", () => {
    const acc = new ChatCompletionAccumulator();
    acc.add(chunk([{ index: 0, delta: { role: "user", refusal: "I can" } }]));
    acc.add(chunk([{ index: 0, delta: { refusal: "'t.", function_call: { name: "f", arguments: "{" } } }]));
    acc.add(chunk([{ index: 0, delta: { function_call: { arguments: "}" } }, finish_reason: "function_call" }]));
    expect(acc.finish().choices[0]!.message).toStrictEqual({
      role: "user",
      content: null,
      refusal: "I can't.",
      function_call: { name: "f", arguments: "{}" },
    });
  });

  it("finish() can be called again and its result is not shared with later chunks", () => {
    const acc = new ChatCompletionAccumulator();
    acc.add(chunk([{ index: 0, delta: { content: "a" }, token_ids: [1] }]));
    const first = acc.finish();
    acc.add(chunk([{ index: 0, delta: { content: "b" }, token_ids: [2] }]));
    expect(first.choices[0]!.message.content).toBe("a");
    expect(first.choices[0]!.token_ids).toEqual([1]);
    expect(acc.finish().choices[0]!.message.content).toBe("ab");
    expect(acc.finish().choices[0]!.token_ids).toEqual([1, 2]);
  });

  it("keeps every piece of a long stream, in order, with finish() called in between", () => {
    // Long enough to cross the runs the accumulator joins its text pieces in.
    const acc = new ChatCompletionAccumulator();
    const pieces = Array.from({ length: 1_500 }, (_, i) => `${i},`);
    let seen = "";
    pieces.forEach((p, i) => {
      acc.add(
        chunk([
          {
            index: 0,
            delta: {
              content: p,
              reasoning: `r${i}`,
              tool_calls: [{ index: 0, ...(i === 0 ? { id: "t", type: "function" } : {}), function: { arguments: p } }],
            },
          },
        ]),
      );
      seen += p;
      if (i === 700 || i === 1_023) expect(acc.finish().choices[0]!.message.content).toBe(seen);
    });
    const message = acc.finish().choices[0]!.message;
    expect(message.content).toBe(pieces.join(""));
    expect(message.reasoning).toBe(pieces.map((_, i) => `r${i}`).join(""));
    expect(message.tool_calls?.[0]?.function.arguments).toBe(pieces.join(""));
  });

  it("gives an empty completion when no chunk arrived", () => {
    expect(new ChatCompletionAccumulator().finish()).toStrictEqual({
      id: "",
      object: "chat.completion",
      created: 0,
      model: "",
      choices: [],
    });
  });
});

describe("ChatCompletionAccumulator property", () => {
  // Per choice: a role chunk, some content/reasoning/tool fragments with token ids and
  // logprobs, then a finish chunk.
  const fragment = fc.oneof(
    fc.record({ content: fc.string({ maxLength: 4 }) }),
    fc.record({ reasoning: fc.string({ maxLength: 4 }) }),
    fc.record({ tool: fc.integer({ min: 0, max: 2 }), args: fc.string({ maxLength: 4 }) }),
  );
  const choiceSeq = (index: number) =>
    fc
      .record({
        fragments: fc.array(fc.tuple(fragment, fc.integer({ min: 0, max: 1000 })), { maxLength: 8 }),
        finish: fc.constantFrom("stop", "length", "tool_calls", "abort", "repetition"),
      })
      .map(({ fragments, finish }) => {
        const out: ChatCompletionChunk[] = [
          chunk([{ index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]),
        ];
        const named = new Set<number>();
        for (const [f, tokenId] of fragments) {
          const base = {
            index,
            logprobs: { content: [{ token: `t${tokenId}`, logprob: -tokenId / 1000 }] },
            token_ids: [tokenId],
          };
          if ("content" in f) out.push(chunk([{ ...base, delta: { content: f.content } }]));
          else if ("reasoning" in f) out.push(chunk([{ ...base, delta: { reasoning: f.reasoning } }]));
          else {
            const first = !named.has(f.tool);
            named.add(f.tool);
            const tc = first
              ? {
                  index: f.tool,
                  id: `call_${index}_${f.tool}`,
                  type: "function" as const,
                  function: { name: `fn${f.tool}`, arguments: f.args },
                }
              : { index: f.tool, function: { arguments: f.args } };
            out.push(chunk([{ ...base, delta: { tool_calls: [tc] } }]));
          }
        }
        out.push(chunk([{ index, delta: {}, finish_reason: finish, stop_reason: null }]));
        return out;
      });

  it("any interleaving of the per-choice chunk sequences yields the same completion", () => {
    const streams = fc
      .integer({ min: 1, max: 4 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => choiceSeq(i))))
      .chain((seqs) => {
        const tags = seqs.flatMap((seq, i) => seq.map(() => i));
        return fc.tuple(
          fc.constant(seqs),
          fc.shuffledSubarray(tags, { minLength: tags.length, maxLength: tags.length }),
        );
      });
    fc.assert(
      fc.property(streams, ([seqs, order]) => {
        const usage = chunk([], { usage: { prompt_tokens: 3, completion_tokens: 7, total_tokens: 10 } });
        const sequential = accumulateChatCompletion([...seqs.flat(), usage]);
        const next = seqs.map(() => 0);
        const interleaved = order.map((i) => seqs[i]![next[i]!++]!);
        expect(accumulateChatCompletion([...interleaved, usage])).toStrictEqual(sequential);
        expect(sequential.choices.map((c) => c.index)).toEqual(seqs.map((_, i) => i));
        expect(sequential.usage?.total_tokens).toBe(10);
      }),
      { numRuns: 300 },
    );
  });
});

describe("ChatCompletionAccumulator: long logprob lists, packed while they stream", () => {
  const utf8 = (s: string) => [...new TextEncoder().encode(s)];
  const entry = (token: string, logprob: number, top = 2) => ({
    token,
    logprob,
    bytes: utf8(token),
    top_logprobs: Array.from({ length: top }, (_, k) => ({
      token: `${token}~${k}`,
      logprob: logprob - k - 1,
      bytes: utf8(`${token}~${k}`),
    })),
  });
  // Entries the packer must keep as they came: an extra key, bytes of a partial character,
  // `bytes: null`, alternatives in another order of keys.
  const odd = [
    { ...entry("x", -1), rank: 1 },
    { token: "\ufffd", logprob: -2, bytes: [0xe2, 0x82], top_logprobs: [] },
    { token: "y", logprob: -3, bytes: null, top_logprobs: [] },
    { token: "z", logprob: -4, bytes: [122], top_logprobs: [{ logprob: -5, token: "w", bytes: [119] }] },
  ];
  const streamOf = (entries: object[], cuts: number[]) => {
    const acc = new ChatCompletionAccumulator();
    let from = 0;
    for (const to of [...cuts.filter((c) => c > 0 && c < entries.length).sort((a, b) => a - b), entries.length]) {
      acc.add(
        chunk([
          {
            index: 0,
            delta: { content: "t" },
            logprobs: { content: entries.slice(from, to) as ChatCompletionTokenLogprob[] },
          },
        ]),
      );
      from = to;
    }
    return acc;
  };

  it("reads, serializes and clones exactly as received, in any chunking and with any odd entry anywhere", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 8 }),
        fc.option(
          fc.record({ at: fc.integer({ min: 0, max: 60 }), which: fc.integer({ min: 0, max: odd.length - 1 }) }),
        ),
        (length, cuts, oddOne) => {
          const received = Array.from({ length }, (_, i) => entry(`tok${i % 7}é`, -(i + 1) / 3, i % 4)) as object[];
          if (oddOne && oddOne.at < length) received[oddOne.at] = odd[oddOne.which]!;
          const expected = JSON.parse(JSON.stringify(received)) as object[];
          const logprobs = streamOf(received, cuts).finish().choices[0]!.logprobs!;
          expect(JSON.stringify(logprobs)).toBe(JSON.stringify({ content: expected }));
          expect(structuredClone(logprobs)).toStrictEqual({ content: expected });
          const content = logprobs.content!;
          expect(Array.isArray(content)).toBe(true);
          expect(content).toStrictEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is an ordinary array once read: the same entries on every read, and writes stay", () => {
    const received = Array.from({ length: 40 }, (_, i) => entry(`t${i}`, -i));
    const logprobs = streamOf(received, [5, 17, 30]).finish().choices[0]!.logprobs!;
    const content = logprobs.content!;
    expect(types.isProxy(content)).toBe(false);
    expect(logprobs.content).toBe(content);
    expect(content[3]).toBe(content[3]);
    content[3]!.logprob = 0;
    content.push(entry("more", -1));
    expect(logprobs.content![3]!.logprob).toBe(0);
    expect(JSON.parse(JSON.stringify(logprobs)).content).toHaveLength(41);
    logprobs.content = [];
    expect(logprobs.content).toEqual([]);
  });

  it("shows its entries in console.log and util.inspect before anything read them", () => {
    const received = Array.from({ length: 20 }, (_, i) => entry(`t${i}`, -i, 0));
    const logprobs = streamOf(received, [9]).finish().choices[0]!.logprobs!;
    const shown = inspect(logprobs, { depth: 4 });
    expect(shown).toContain("token: 't19'");
    expect(shown).not.toContain("Getter");
  });

  it("a completion taken before later chunks keeps the list it had", () => {
    const received = Array.from({ length: 50 }, (_, i) => entry(`t${i}`, -i));
    const acc = streamOf(received.slice(0, 30), [10, 20]);
    const early = acc.finish();
    acc.add(chunk([{ index: 0, delta: {}, logprobs: { content: received.slice(30) } }]));
    const late = acc.finish();
    expect(early.choices[0]!.logprobs!.content).toHaveLength(30);
    expect(late.choices[0]!.logprobs!.content).toStrictEqual(received);
    expect(early.choices[0]!.logprobs!.content).toStrictEqual(received.slice(0, 30));
  });
});
