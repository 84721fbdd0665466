// model.trainSFT and model.downloadCheckpoint end to end against the fake over loopback.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactNotFoundError, RequestValidationError, type SFTRow } from "../../src/index.js";
import { SFT_DATASET_CASES } from "../cases/sft-dataset-cases.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
const BASE_MODEL = "OpenPipe/Qwen3-14B-Instruct";
const row = (q: string, a: string): SFTRow => ({
  messages: [
    { role: "user", content: q },
    { role: "assistant", content: a },
  ],
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inferloop-sft-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("model.trainSFT", () => {
  it("uploads the rows as train.jsonl in a dataset artifact logged to the model's run, then trains on the version W&B assigned", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "agent", base_model: BASE_MODEL });
    async function* rows() {
      yield row("2+2?", "4");
      yield {
        ...row("weather?", "sunny"),
        tools: [{ type: "function", function: { name: "get_weather", parameters: {} } }],
      };
    }
    const events: string[] = [];
    const result = await model.trainSFT(rows(), {
      name: "agent-data",
      config: { learning_rate: 5e-5 },
      onEvent: (e) => events.push(e.type),
      pollInterval: 5,
    });
    expect(result.trainingDataUrl).toBe("wandb-artifact:///acme/sft/agent-data:v0");
    expect(result.step).toBe(1);
    expect(events.at(-1)).toBe("training_ended");
    expect(Object.keys(result.metrics)).toContain("loss");

    const dataset = fake.svc.state.artifacts.list().find((a) => a.collection === "agent-data")!;
    expect(dataset).toMatchObject({ type: "dataset", state: "COMMITTED", runName: model.run_id });
    expect(JSON.parse(dataset.metadata!)).toEqual({ format: "jsonl", num_trajectories: 2 });
    const lines: string[] = [];
    for await (const f of fake.client.artifacts.files(result.trainingDataUrl))
      lines.push(...(await new Response(f.body).text()).trim().split("\n"));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      row("2+2?", "4"),
      { ...row("weather?", "sunny"), tools: [{ type: "function", function: { name: "get_weather", parameters: {} } }] },
    ]);
    const job = fake.svc.trainingJobs.at(-1)!;
    expect(job.request).toEqual({
      model_id: model.id,
      training_data_url: result.trainingDataUrl,
      config: { learning_rate: 5e-5 },
    });

    // A second dataset of the same name gets v1, and the job is given v1, not a guessed v0.
    const again = await model.trainSFT([row("a", "b")], { name: "agent-data", pollInterval: 5 });
    expect(again.trainingDataUrl).toBe("wandb-artifact:///acme/sft/agent-data:v1");
  });

  it("reads a JSONL file by path, line by line", async () => {
    const model = await fake.client.trainableModels.register({
      project: "sft",
      name: "from-file",
      base_model: BASE_MODEL,
    });
    const path = join(dir, "train.jsonl");
    await writeFile(path, `${JSON.stringify(row("x", "y"))}\n\n${JSON.stringify(row("z", "w"))}\n`);
    const result = await model.trainSFT(path, { pollInterval: 5 });
    expect(result.trainingDataUrl).toMatch(/^wandb-artifact:\/\/\/acme\/sft\/from-file-sft-data-[0-9a-f]{12}:v0$/);
    const dataset = fake.svc.state.artifacts.list().at(-1)!;
    expect(JSON.parse(dataset.metadata!).num_trajectories).toBe(2);
  });

  it("refuses a bad row before anything is sent, naming it", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "bad", base_model: BASE_MODEL });
    const sent = fake.svc.requests.length;
    const err = await caught(() => model.trainSFT([row("a", "b"), { messages: "hi" } as unknown as SFTRow]));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]?.path).toBe("rows.1.messages");
    const empty = await caught(() => model.trainSFT([]));
    expect((empty as RequestValidationError).issues[0]?.path).toBe("rows");
    const file = join(dir, "bad.jsonl");
    await writeFile(file, "{not json\n");
    const badLine = await caught(() => model.trainSFT(file));
    expect((badLine as RequestValidationError).issues[0]?.path).toBe(`rows (line 1 of ${file})`);
    expect(fake.svc.requests.length).toBe(sent);
  });
});

describe("model.trainSFT(path) with the shared SFT dataset cases", () => {
  for (const c of SFT_DATASET_CASES) {
    it(`${c.name} (${c.source})`, async () => {
      const model = await fake.client.trainableModels.register({
        project: "sft",
        name: "cases",
        base_model: BASE_MODEL,
      });
      const file = join(dir, "train.jsonl");
      await writeFile(file, c.jsonl);
      const sent = fake.svc.requests.length;
      const events: Array<{ type: string; data: Record<string, unknown> }> = [];
      const run = () =>
        model.trainSFT(file, {
          pollInterval: 5,
          onEvent: (e) => events.push(e),
          ...(c.batchSize === undefined ? {} : { config: { batch_size: c.batchSize } }),
        });
      if (c.sdk === "refuse") {
        const err = await caught(run);
        expect(err).toBeInstanceOf(RequestValidationError);
        expect((err as RequestValidationError).issues[0]?.path).toBe(c.sdkPath!.replace("{file}", file));
        expect(fake.svc.requests.length).toBe(sent);
        return;
      }
      const result = await run();
      // The dataset holds the rows as ART writes them (blank lines dropped), and the job trained
      // one step per batch of them.
      const uploaded: string[] = [];
      for await (const f of fake.client.artifacts.files(result.trainingDataUrl))
        uploaded.push(await new Response(f.body).text());
      const rows = c.jsonl.split("\n").filter((l) => l.trim() !== "");
      expect(uploaded).toEqual([rows.map((l) => `${JSON.stringify(JSON.parse(l))}\n`).join("")]);
      expect("batches" in c.fake && events.filter((e) => e.type === "gradient_step").length).toBe(
        "batches" in c.fake && c.fake.batches,
      );
      expect(events[0]?.data["num_sequences"]).toBe("batches" in c.fake && c.fake.batches);
    });
  }
});

describe("model.downloadCheckpoint", () => {
  it("downloads the trained LoRA of a step, and refuses a step that does not exist", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "dl", base_model: BASE_MODEL });
    await model.trainSFT([row("a", "b")], { pollInterval: 5 });
    const got = await model.downloadCheckpoint(1, { dir });
    expect(got.files).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
    expect((await readdir(dir)).sort()).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
    expect(await caught(() => model.downloadCheckpoint(7, { dir }))).toBeInstanceOf(ArtifactNotFoundError);
    expect(await caught(() => model.downloadCheckpoint(-1, { dir }))).toBeInstanceOf(RequestValidationError);
  });
});
