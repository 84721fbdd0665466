/**
 * capturingFetch with the real `openai` client and the real AI SDK provider against the fake
 * service: tool-calling agents captured into trajectories, gathered and trained, and the
 * response handed to the client unchanged and unbuffered.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, isStepCount, jsonSchema, streamText, tool } from "ai";
import OpenAI from "openai";
import type {
  ChatCompletionMessageParam as OpenAIMessage,
  ChatCompletionTool as OpenAITool,
} from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatCompletionChoice,
  captureTrajectory,
  capturingFetch,
  gatherTrajectoryGroups,
  RequestValidationError,
  Trajectory,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { caught, clientFor, MODEL, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

// What an agent of two tool rounds and an answer records: one conversation, each turn once.
const TWO_TOOL_ROUNDS = ["system", "user", "choice:tool_calls", "tool", "choice:tool_calls", "tool", "choice:stop"];
const roles = (t: { messages_and_choices: unknown[] }) =>
  t.messages_and_choices.map((m) =>
    m !== null && typeof m === "object" && "role" in m
      ? (m as { role: string }).role
      : `choice:${(m as ChatCompletionChoice).finish_reason}`,
  );
const chatBodies = () =>
  fake.svc.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.json as Record<string, unknown>);

const weatherTool: OpenAITool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

async function openaiAgent(openai: OpenAI, city: string, stream: boolean): Promise<number> {
  const messages: OpenAIMessage[] = [
    { role: "system", content: "You answer weather questions with the tool." },
    { role: "user", content: `What does get_weather say for ${city}?` },
  ];
  for (let step = 0; step < 3; step++) {
    // The last step must answer: the fake calls a tool whenever the question names one.
    const request: Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "stream"> = {
      model: MODEL,
      messages,
      tools: [weatherTool],
      // Two tool rounds ("required" calls a tool every time), then the last step answers.
      tool_choice: step === 2 ? "none" : "required",
    };
    let message: OpenAI.Chat.Completions.ChatCompletionMessage;
    if (stream) {
      const runner = openai.chat.completions.stream(request);
      message = (await runner.finalChatCompletion()).choices[0]!.message;
    } else {
      message = (await openai.chat.completions.create(request)).choices[0]!.message;
    }
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ? 1 : 0;
    for (const call of message.tool_calls)
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify({ city, celsius: 21 }) });
  }
  return 0;
}

describe("capturingFetch with the openai client", () => {
  const openai = () =>
    new OpenAI({ baseURL: `${fake.svc.url}/v1`, apiKey: fake.svc.apiKey, maxRetries: 0, fetch: capturingFetch() });

  it("records a multi-turn tool-calling agent, plain and streamed, as one conversation each; gathered and trained", async () => {
    const groups = await gatherTrajectoryGroups([
      [
        () => captureTrajectory(() => openaiAgent(openai(), "Paris", false), { logprobs: true }),
        () => captureTrajectory(() => openaiAgent(openai(), "Paris", true), { logprobs: true }),
      ],
    ]);
    const [plain, streamed] = groups[0]!.trajectories;
    for (const t of [plain!, streamed!]) {
      expect(roles(t)).toEqual(TWO_TOOL_ROUNDS);
      expect(t.reward).toBe(1);
      expect(t.additional_histories).toEqual([]);
      expect(t.tools).toEqual([weatherTool]);
      const last = t.messages_and_choices.at(-1) as ChatCompletionChoice;
      expect(last.token_ids!.length).toBeGreaterThan(0);
      expect(last.logprobs!.content).toHaveLength(last.token_ids!.length);
      expect(t.logs).toEqual([]);
    }
    // The fake samples the same prompt the same way: streamed replies are recorded with the
    // same tokens as plain ones.
    const tokens = (t: Trajectory) =>
      t.messages_and_choices
        .filter((m) => !("role" in m))
        .map((c) => [(c as ChatCompletionChoice).token_ids, (c as ChatCompletionChoice).logprobs]);
    expect(tokens(streamed!)).toEqual(tokens(plain!));
    expect(chatBodies().every((b) => b["logprobs"] === true && b["return_token_ids"] === true)).toBe(true);
    // Both conversations score 1: the SDK says the group teaches nothing, and still sends it.
    const warnings = captureWarnings();
    const { id } = await fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups });
    expect(fake.svc.trainingJobs.find((j) => j.id === id)!.rewards).toEqual([[1, 1]]);
    expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
  });

  it("a client made without capturingFetch records no choice: train() and create() refuse, naming group and index, nothing sent", async () => {
    const unrecorded = () => new OpenAI({ baseURL: `${fake.svc.url}/v1`, apiKey: fake.svc.apiKey, maxRetries: 0 });
    // The forgotten fetch sits in the second group, second place, between recorded rollouts.
    const groups = await gatherTrajectoryGroups([
      [
        () => captureTrajectory(() => openaiAgent(openai(), "Paris", false)),
        () => captureTrajectory(() => openaiAgent(openai(), "Paris", true)),
      ],
      [
        () => captureTrajectory(() => openaiAgent(openai(), "Rome", false)),
        () => captureTrajectory(() => openaiAgent(unrecorded(), "Rome", false)),
      ],
    ]);
    const forgotten = groups[1]!.trajectories[1]!;
    expect(forgotten.reward).toBe(1);
    const model = await fake.client.trainableModels.register({
      project: "p",
      name: "agent",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    const jobsBefore = fake.svc.trainingJobs.length;
    for (const attempt of [
      () => model.train(groups),
      () => fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups }),
    ]) {
      const err = await caught(attempt);
      expect(err).toBeInstanceOf(RequestValidationError);
      const { issues, message } = err as RequestValidationError;
      expect(issues.map((i) => [i.path, i.code])).toEqual([["trajectory_groups.1.trajectories.1", "no_choice"]]);
      expect(message).toMatch(/group 1, trajectory 1 has no assistant choice/);
      expect(message).toMatch(/capturingFetch\(\)/);
    }
    expect(fake.svc.trainingJobs).toHaveLength(jobsBefore);
    expect(fake.svc.requests.filter((r) => r.path === "/v1/preview/training-jobs")).toHaveLength(0);
  });

  it("a stream that ends in an error event is a line in logs, not a choice", async () => {
    fake.svc.inject(faults.streamError({ afterChunks: 2, code: 500, message: "engine died" }));
    const t = await captureTrajectory(async () => {
      const stream = await openai().chat.completions.create({
        model: MODEL,
        stream: true,
        messages: [{ role: "user", content: "echo a b c d" }],
      });
      await caught(async () => {
        for await (const _ of stream);
      });
    });
    expect(t.messages_and_choices).toEqual([]);
    expect(t.logs).toEqual([
      "chat completion failed (model Qwen/Qwen3-8B, 1 messages): Error: the stream carried an error event: engine died",
    ]);
  });

  it("a failed call is a line in logs", async () => {
    const t = await captureTrajectory(async () => {
      const err = await caught(() =>
        openai().chat.completions.create({ model: "no/such-model", messages: [{ role: "user", content: "hi" }] }),
      );
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    });
    expect(t.messages_and_choices).toEqual([]);
    expect(t.logs).toEqual(["chat completion failed (model no/such-model, 1 messages): Error: HTTP 404 Not Found"]);
  });
});

describe("capturingFetch with the AI SDK", () => {
  const provider = () =>
    createOpenAICompatible({
      name: "vllm",
      baseURL: `${fake.svc.url}/v1`,
      apiKey: fake.svc.apiKey,
      fetch: capturingFetch(),
    });
  const tools = {
    get_weather: tool({
      description: "Current weather in a city",
      inputSchema: jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }) => ({ city, celsius: 21 }),
    }),
  };
  const options = {
    system: "You answer weather questions with the tool.",
    prompt: "What does get_weather say for Paris?",
    tools,
    stopWhen: isStepCount(3),
    maxRetries: 0,
    // Two tool rounds ("required" calls a tool every time), then the last step answers.
    prepareStep: ({ stepNumber }: { stepNumber: number }) => ({
      toolChoice: stepNumber === 2 ? ("none" as const) : ("required" as const),
    }),
  };

  it("records generateText and streamText tool loops as one conversation each; gathered and trained", async () => {
    const groups = await gatherTrajectoryGroups([
      [
        () =>
          captureTrajectory(
            async () => {
              const result = await generateText({ model: provider().chatModel(MODEL), ...options });
              return result.text.length > 0 ? 1 : 0;
            },
            // A job trains only choices that carry logprobs.
            { logprobs: true },
          ),
        () =>
          captureTrajectory(
            async () => {
              const result = streamText({ model: provider().chatModel(MODEL), ...options });
              return (await result.text).length > 0 ? 0.5 : 0;
            },
            { logprobs: true },
          ),
      ],
    ]);
    const [generated, streamed] = groups[0]!.trajectories;
    for (const t of [generated!, streamed!]) {
      expect(roles(t)).toEqual(TWO_TOOL_ROUNDS);
      expect(t.additional_histories).toEqual([]);
      expect(t.logs).toEqual([]);
      expect((t.tools ?? []).map((x) => x.function.name)).toEqual(["get_weather"]);
    }
    expect([generated!.reward, streamed!.reward]).toEqual([1, 0.5]);
    const { id } = await fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups });
    expect(fake.svc.trainingJobs.find((j) => j.id === id)!.rewards).toEqual([[1, 0.5]]);
  });
});

describe("capturingFetch passes the response through", () => {
  it("outside a capture it is fetch itself: the very same Response, nothing recorded", async () => {
    let original: Response | undefined;
    const f = capturingFetch(async (input, init) => (original = await fetch(input, init)));
    const res = await f(`${fake.svc.url}/v1/models`, { headers: { authorization: `Bearer ${fake.svc.apiKey}` } });
    expect(res).toBe(original);
  });

  it("an inferloop client given capturingFetch inside a capture is recorded once", async () => {
    const c = clientFor(fake.svc, { fetch: capturingFetch() });
    const t = await captureTrajectory(() =>
      c.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "echo once" }] }),
    );
    expect(roles(t)).toEqual(["user", "choice:stop"]);
  });

  it("the explicit form records into a trajectory it is given, with no capture running", async () => {
    const trajectory = new Trajectory();
    const c = clientFor(fake.svc, { fetch: capturingFetch(fetch, { trajectory, logprobs: true }) });
    await c.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "echo held" }] });
    expect(roles(trajectory)).toEqual(["user", "choice:stop"]);
    expect((trajectory.messages_and_choices[1] as ChatCompletionChoice).token_ids!.length).toBeGreaterThan(0);
  });

  describe("against a server that streams on cue", () => {
    // Sends the first event, then waits for the test to say the client has it before the rest.
    let url = "";
    let release: (() => void) | undefined;
    let closed: Promise<void> = Promise.resolve();
    const first = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }] })}\n\n`;
    const rest = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
    const server = createServer((req, res: ServerResponse) => {
      req.resume();
      closed = new Promise((resolve) => res.on("close", () => resolve()));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(first);
      release = () => res.end(rest);
    });
    beforeAll(async () => {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));
    const post = (f: typeof fetch, signal?: AbortSignal) =>
      f(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true }),
        signal,
      });

    async function readAll(res: Response, onFirst: () => void): Promise<Uint8Array[]> {
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return chunks;
        if (chunks.length === 0) onFirst();
        chunks.push(value);
      }
    }

    it("each chunk reaches the caller before the server sends the next, byte for byte, and is recorded at the end", async () => {
      const direct = await readAll(await post(fetch), () => release!());
      let firstText = "";
      const t = await captureTrajectory(async () => {
        const res = await post(capturingFetch() as typeof fetch);
        expect(res.headers.get("content-type")).toBe("text/event-stream");
        const chunks = await readAll(res, () => release!());
        firstText = new TextDecoder().decode(chunks[0]);
        expect(Buffer.concat(chunks)).toEqual(Buffer.concat(direct));
      });
      // The first read held only what the server had sent: it did not wait for the rest.
      expect(firstText).toBe(first);
      expect((t.messages_and_choices[1] as ChatCompletionChoice).message.content).toBe("Hello");
    });

    it("an abort still aborts the request, and is logged", async () => {
      const controller = new AbortController();
      const t = await captureTrajectory(async () => {
        const res = await post(capturingFetch() as typeof fetch, controller.signal);
        const reader = res.body!.getReader();
        await reader.read();
        controller.abort();
        const err = await caught(() => reader.read());
        expect((err as Error).name).toBe("AbortError");
        await closed;
      });
      expect(t.messages_and_choices).toEqual([]);
      expect(t.logs).toHaveLength(1);
      expect(t.logs[0]).toMatch(/^chat completion failed \(model m, 1 messages\): AbortError/);
    });
  });
});
