/**
 * The trace path end to end: inferloop's GenAI spans, exported by the real OpenTelemetry OTLP
 * protobuf exporter to the fake's `/otel/v1/traces`, become call records that `calls.query`
 * returns, with the inputs, outputs, usage and model the trace server's mapping gives.
 */
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallRecord, trajectoryFromCalls } from "../../src/index.js";
import { MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false }, { telemetry: { recordContent: true } });

const PROJECT = "acme/rollouts";
let provider: BasicTracerProvider;

// The chat calls traced so far (the client's own calls queries are traced too).
async function exported(): Promise<CallRecord[]> {
  await provider.forceFlush();
  const calls = await fake.client.calls.query({ project_id: PROJECT }).toArray();
  return calls.filter((c) => c.op_name.startsWith("chat "));
}

describe("spans exported with OTLP protobuf", () => {
  beforeAll(() => {
    const exporter = new OTLPTraceExporter({
      url: `${fake.svc.url}/otel/v1/traces`,
      headers: { "wandb-api-key": fake.svc.password },
    });
    provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        "service.name": "agent",
        "wandb.entity": "acme",
        "wandb.project": "rollouts",
      }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });

  it("a chat call becomes a call record with the mapped inputs, outputs, usage and model", async () => {
    const messages = [{ role: "user" as const, content: "echo traced call" }];
    const completion = await fake.client.chat.completions.create({ model: MODEL, messages, temperature: 0.5 });
    const [call, ...rest] = await exported();
    expect(rest).toEqual([]);
    const post = fake.svc.requests.find((r) => r.path === "/otel/v1/traces")!;
    expect(post.headers["content-type"]).toBe("application/x-protobuf");
    expect(call).toMatchObject({
      project_id: PROJECT,
      op_name: `chat ${MODEL}`,
      parent_id: null,
      exception: null,
      inputs: { "gen_ai.input.messages": JSON.stringify(messages) },
      attributes: {
        model: completion.model,
        operation: "chat",
        model_parameters: { model: MODEL, temperature: 0.5 },
      },
    });
    expect(call!.id).toMatch(/^[0-9a-f]{16}$/);
    expect(call!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const output = JSON.parse((call!["output"] as Record<string, string>)["gen_ai.output.messages"]!) as Array<{
      role: string;
    }>;
    expect(output[0]!.role).toBe("assistant");
    expect(JSON.stringify(output)).toContain("traced call");
    expect(call!["summary"]).toMatchObject({
      usage: {
        [completion.model]: {
          input_tokens: completion.usage!.prompt_tokens,
          output_tokens: completion.usage!.completion_tokens,
          total_tokens: completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
        },
      },
      weave: { status: "success" },
    });
    expect(Date.parse(call!["ended_at"] as string)).toBeGreaterThanOrEqual(Date.parse(call!.started_at));
  });

  it("keeps each choice's logprobs and token ids when the call asked for them: the trace trains like a capture", async () => {
    const messages = [{ role: "user" as const, content: "echo logprobs kept" }];
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages,
      logprobs: true,
      return_token_ids: true,
    });
    const streamed = await fake.client.chat.completions.create({
      model: MODEL,
      messages,
      logprobs: true,
      return_token_ids: true,
      stream: true,
    });
    const fromStream = await streamed.finalCompletion();
    const calls = await exported();
    expect(calls).toHaveLength(2);
    for (const [call, reply] of [
      [calls[0]!, completion],
      [calls[1]!, fromStream],
    ] as const) {
      const choice = trajectoryFromCalls([call]).toJSON().messages_and_choices.at(-1) as Record<string, unknown>;
      const expected = JSON.parse(JSON.stringify(reply.choices[0])) as Record<string, unknown>;
      expect((expected["logprobs"] as { content: unknown[] }).content.length).toBeGreaterThan(0);
      expect((choice["logprobs"] as { content: unknown }).content).toEqual(
        (expected["logprobs"] as { content: unknown }).content,
      );
      expect(choice["token_ids"]).toEqual(expected["token_ids"]);
      expect(choice["message"]).toEqual({ role: "assistant", content: reply.choices[0]!.message.content });
    }
  });

  it("a streamed call and a failed one are traced too; the failure carries its exception", async () => {
    const stream = await fake.client.chat.completions.create({
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "echo streamed" }],
    });
    await stream.finalCompletion();
    await fake.client.chat.completions
      .create({ model: "no/such-model", messages: [{ role: "user", content: "x" }] })
      .catch(() => {});
    const calls = await exported();
    expect(calls).toHaveLength(2);
    const streamed = calls.find((c) => c.op_name === `chat ${MODEL}`)!;
    expect(JSON.stringify(streamed["output"])).toContain("streamed");
    const failed = calls.find((c) => c.op_name === "chat no/such-model")!;
    expect(failed["exception"]).toBe("NotFoundError");
    expect(failed["summary"]).toMatchObject({ weave: { status: "error" } });
  });
});

describe("the OTLP route", () => {
  const span = {
    traceId: "5b8efff798038103d269b633813fc60c",
    spanId: "eee19b7ec3c1b174",
    name: "judge",
    kind: 1,
    startTimeUnixNano: "1742317452345678000",
    endTimeUnixNano: "1742317453345678000",
    attributes: [
      { key: "input.value", value: { stringValue: "Is 4 right?" } },
      { key: "output.value", value: { stringValue: "yes" } },
      { key: "llm.token_count.prompt", value: { intValue: "12" } },
      { key: "llm.token_count.completion", value: { intValue: "1" } },
      { key: "llm.model_name", value: { stringValue: "judge-1" } },
      { key: "openinference.span.kind", value: { stringValue: "LLM" } },
    ],
    status: {},
  };
  const post = (headers: Record<string, string>, resource: unknown[] = []) =>
    fetch(`${fake.svc.url}/otel/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({
        resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans: [span] }] }],
      }),
    });
  const basic = () => `Basic ${Buffer.from(`${fake.svc.username}:${fake.svc.password}`).toString("base64")}`;

  it("takes OTLP/JSON with Basic auth and a project_id header, mapping OpenInference attributes", async () => {
    const res = await post({ authorization: basic(), project_id: PROJECT });
    expect(res.status).toBe(200);
    const [call] = await fake.client.calls.query({ project_id: PROJECT }).toArray();
    expect(call).toMatchObject({
      id: "eee19b7ec3c1b174",
      trace_id: "5b8efff798038103d269b633813fc60c",
      op_name: "judge",
      started_at: "2025-03-18T17:04:12.345678Z",
      ended_at: "2025-03-18T17:04:13.345678Z",
      inputs: { "input.value": "Is 4 right?" },
      output: { "output.value": "yes" },
      attributes: { model: "judge-1", kind: "LLM" },
      summary: { usage: { "judge-1": { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 } } },
    });
  });

  it("refuses a wrong key, and a request with no project", async () => {
    expect((await post({ "wandb-api-key": "wrong", project_id: PROJECT })).status).toBe(401);
    const res = await post({ "wandb-api-key": fake.svc.password });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/wandb\.entity and wandb\.project resource attributes, or a project_id header/);
    expect(await fake.client.calls.query({ project_id: PROJECT }).toArray()).toEqual([]);
  });

  it("routes by the wandb.entity / wandb.project resource attributes", async () => {
    const resource = [
      { key: "wandb.entity", value: { stringValue: "acme" } },
      { key: "wandb.project", value: { stringValue: "judges" } },
    ];
    expect((await post({ "wandb-api-key": fake.svc.password }, resource)).status).toBe(200);
    expect(await fake.client.calls.query({ project_id: "acme/judges" }).toArray()).toHaveLength(1);
  });
});
