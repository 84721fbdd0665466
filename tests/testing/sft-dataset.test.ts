/**
 * The fake's SFT jobs read the uploaded train.jsonl: the shared dataset cases over real HTTP (the
 * raw file uploaded as a dataset artifact, then `POST /v1/preview/sft-training-jobs` with plain
 * fetch), and the steps and metrics derived from what was uploaded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeService, startFakeService } from "../../src/testing/index.js";
import { SFT_DATASET_CASES } from "../cases/sft-dataset-cases.js";
import { clientFor } from "../integration/helpers.js";

let svc: FakeService;
let modelId: string;

function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${svc.apiKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

let uploads = 0;
async function dataset(jsonl: string): Promise<string> {
  const { ref } = await clientFor(svc).artifacts.upload({
    entity: "acme",
    project: "sft",
    name: `data-${++uploads}`,
    type: "dataset",
    files: [{ name: "train.jsonl", data: jsonl }],
  });
  return ref;
}

async function eventsOf(jobId: string): Promise<Array<{ type: string; data: Record<string, number> }>> {
  const res = await call("GET", `/v1/preview/training-jobs/${jobId}/events?limit=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ type: string; data: Record<string, number> }> }).data;
}

async function sft(jsonl: string, config?: Record<string, unknown>): Promise<Response> {
  return call("POST", "/v1/preview/sft-training-jobs", {
    model_id: modelId,
    training_data_url: await dataset(jsonl),
    ...(config === undefined ? {} : { config }),
  });
}

beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, trainingStepMs: 0 });
  const res = await call("POST", "/v1/preview/models", {
    project: "sft",
    name: "tutor",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  });
  modelId = ((await res.json()) as { id: string }).id;
});
afterAll(() => svc.close());

describe("the SFT dataset cases against the fake", () => {
  for (const c of SFT_DATASET_CASES) {
    it(`${c.name} (${c.source})`, async () => {
      const res = await sft(c.jsonl, c.batchSize === undefined ? undefined : { batch_size: c.batchSize });
      if ("refused" in c.fake) {
        expect(res.status).toBe(400);
        expect(((await res.json()) as { detail: string }).detail).toContain(c.fake.refused);
        return;
      }
      expect(res.status).toBe(200);
      const events = await eventsOf(((await res.json()) as { id: string }).id);
      expect(events[0]).toMatchObject({ type: "training_started", data: { num_sequences: c.fake.batches } });
      expect(events.filter((e) => e.type === "gradient_step").length).toBe(c.fake.batches);
      expect(events.at(-1)?.type).toBe("training_ended");
    });
  }
});

describe("an SFT job trains on what was uploaded", () => {
  it("counts each batch's tokens from its messages, the trainable ones in its assistant turns", async () => {
    const long = "word ".repeat(40);
    const row = (answer: string) =>
      `${JSON.stringify({
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "first" },
          { role: "user", content: "again" },
          { role: "assistant", content: answer },
        ],
      })}\n`;
    const jsonl = row("short") + row(long);
    const all = await eventsOf(((await (await sft(jsonl, { batch_size: 1 })).json()) as { id: string }).id);
    const steps = all.filter((e) => e.type === "gradient_step").map((e) => e.data);
    expect(steps.map((s) => s["step"])).toEqual([1, 2]);
    // The second row's reply is 40 words longer: its batch has more tokens, trainable ones included.
    expect(steps[1]!["num_tokens"]! - steps[0]!["num_tokens"]!).toBeGreaterThanOrEqual(40);
    expect(steps[1]!["num_trainable_tokens"]!).toBeGreaterThan(steps[0]!["num_trainable_tokens"]!);
    for (const s of steps) expect(s["num_trainable_tokens"]!).toBeLessThan(s["num_tokens"]!);

    // assistant_turns "last" trains only the last assistant turn: fewer trainable tokens.
    const last = await eventsOf(
      ((await (await sft(jsonl, { batch_size: 1, assistant_turns: "last" })).json()) as { id: string }).id,
    );
    const lastSteps = last.filter((e) => e.type === "gradient_step").map((e) => e.data);
    expect(lastSteps[0]!["num_tokens"]).toBe(steps[0]!["num_tokens"]);
    expect(lastSteps[0]!["num_trainable_tokens"]!).toBeLessThan(steps[0]!["num_trainable_tokens"]!);
  });

  it("takes each batch's learning rate from a per-batch list", async () => {
    const rows = ["a", "b", "c"].map((q) => `${JSON.stringify({ messages: [{ role: "user", content: q }] })}\n`);
    const res = await sft(rows.join(""), { batch_size: 1, learning_rate: [1e-4, 5e-5, 1e-5] });
    const steps = (await eventsOf(((await res.json()) as { id: string }).id)).filter((e) => e.type === "gradient_step");
    expect(steps.map((e) => e.data["learning_rate"])).toEqual([1e-4, 5e-5, 1e-5]);
  });

  it("refuses a dataset artifact without train.jsonl, and a missing one", async () => {
    const { ref } = await clientFor(svc).artifacts.upload({
      entity: "acme",
      project: "sft",
      name: "no-train-file",
      type: "dataset",
      files: [{ name: "data.jsonl", data: "{}\n" }],
    });
    const noFile = await call("POST", "/v1/preview/sft-training-jobs", { model_id: modelId, training_data_url: ref });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { detail: string }).detail).toContain("no train.jsonl");
    const gone = await call("POST", "/v1/preview/sft-training-jobs", {
      model_id: modelId,
      training_data_url: "wandb-artifact:///acme/sft/never-uploaded:v0",
    });
    expect(gone.status).toBe(400);
  });
});
