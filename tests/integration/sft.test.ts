// model.trainSFT and model.downloadCheckpoint end to end against the fake over loopback.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ArtifactNotFoundError,
  RequestValidationError,
  type SFTRow,
  type SFTTrainingConfig,
  type TrainSFTOptions,
} from "../../src/index.js";
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
let spoolsBefore: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inferloop-sft-"));
  spoolsBefore = (await readdir(tmpdir())).filter((f) => f.startsWith("inferloop-upload-"));
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

describe("model.trainSFT checks everything before anything is sent", () => {
  // Each call is refused with RequestValidationError naming `path`, and the fake saw no request.
  const refusals: Array<{
    what: string;
    rows?: unknown;
    options?: Record<string, unknown>;
    path: string;
    says: RegExp;
  }> = [
    {
      what: "a misspelt option",
      options: { confg: { learning_rate: 1e-5 } },
      path: "confg",
      says: /did you mean "config"/,
    },
    {
      what: "an option trainSFT does not have",
      options: { epochs: 3 },
      path: "epochs",
      says: /the options are config, name/,
    },
    {
      what: "a misspelt config setting",
      options: { config: { learnng_rate: 5e-5 } },
      path: "config.learnng_rate",
      says: /did you mean "learning_rate"/,
    },
    { what: "a bad batch_size", options: { config: { batch_size: "big" } }, path: "config.batch_size", says: /"auto"/ },
    {
      what: "a bad assistant_turns",
      options: { config: { assistant_turns: "first" } },
      path: "config.assistant_turns",
      says: /"all" or "last"/,
    },
    { what: "a dataset name with a colon", options: { name: "data:v1" }, path: "name", says: /without \/ or :/ },
    { what: "a negative pollInterval", options: { pollInterval: -1 }, path: "pollInterval", says: /ms >= 0/ },
    { what: "an onEvent that is no function", options: { onEvent: "log" }, path: "onEvent", says: /function/ },
    { what: "a blank idempotencyKey", options: { idempotencyKey: " " }, path: "idempotencyKey", says: /non-blank/ },
    {
      what: "a row without an assistant turn, after good ones",
      rows: [row("a", "b"), row("c", "d"), { messages: [{ role: "user", content: "no reply" }] }],
      path: "rows.2.messages",
      says: /row 3: the row has no assistant message/,
    },
    { what: "rows that are no iterable", rows: 42, path: "rows", says: /iterable/ },
  ];
  for (const r of refusals)
    it(`refuses ${r.what}, with no request made`, async () => {
      const model = await fake.client.trainableModels.register({
        project: "sft",
        name: "checked",
        base_model: BASE_MODEL,
      });
      const sent = fake.svc.requests.length;
      const err = await caught(() =>
        model.trainSFT(
          (r.rows ?? [row("2+2?", "4")]) as SFTRow[],
          { pollInterval: 5, ...r.options } as TrainSFTOptions,
        ),
      );
      expect(err).toBeInstanceOf(RequestValidationError);
      const issue = (err as RequestValidationError).issues.find((i) => i.path === r.path);
      expect(issue?.message, (err as Error).message).toMatch(r.says);
      expect(fake.svc.requests.length - sent).toBe(0);
    });

  it("names every bad line of a file (1-based), reads it to the end, and sends nothing", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "lines", base_model: BASE_MODEL });
    const file = join(dir, "train.jsonl");
    const noReply = JSON.stringify({ messages: [{ role: "user", content: "cut before the reply" }] });
    await writeFile(
      file,
      [JSON.stringify(row("a", "b")), noReply, "", JSON.stringify(row("c", "d")), noReply].join("\n"),
    );
    const sent = fake.svc.requests.length;
    const err = (await caught(() => model.trainSFT(file))) as RequestValidationError;
    expect(err.issues.map((i) => i.path)).toEqual([
      `rows (line 2 of ${file}).messages`,
      `rows (line 5 of ${file}).messages`,
    ]);
    expect(err.message).toMatch(/no assistant message.*Nothing was sent/);
    expect(fake.svc.requests.length - sent).toBe(0);
    // No spool is left behind.
    expect((await readdir(tmpdir())).filter((f) => f.startsWith("inferloop-upload-"))).toEqual(spoolsBefore);
  });

  it("refuses a model name too long for the default dataset name (W&B's 128 characters), with no request made", async () => {
    const model = await fake.client.trainableModels.register({
      project: "sft",
      name: "m".repeat(110),
      base_model: BASE_MODEL,
    });
    const sent = fake.svc.requests.length;
    const err = (await caught(() => model.trainSFT([row("a", "b")]))) as RequestValidationError;
    expect(err.issues.map((i) => i.path)).toEqual(["name"]);
    expect(fake.svc.requests.length - sent).toBe(0);
    // A name of one's own makes it fit.
    await model.trainSFT([row("a", "b")], { name: "short", pollInterval: 5 });
  });

  it("takes config typed as W&B's SFTTrainingConfig and sends it as given", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "typed", base_model: BASE_MODEL });
    const config: SFTTrainingConfig = { batch_size: 1, learning_rate: [1e-4, 5e-5], assistant_turns: "last" };
    await model.trainSFT([row("a", "b"), row("c", "d")], { config, pollInterval: 5 });
    expect(fake.svc.trainingJobs.at(-1)!.request["config"]).toEqual(config);
  });
});

describe("model.trainSFT names the dataset by its rows", () => {
  const uploads = () => fake.svc.requests.filter((r) => r.method === "PUT" && r.path.startsWith("/storage/")).length;

  it("the same rows twice: one upload, one artifact version, two jobs on it", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "same", base_model: BASE_MODEL });
    const rows = [row("2+2?", "4"), row("3+3?", "6")];
    const first = await model.trainSFT(rows, { pollInterval: 5 });
    const put = uploads();
    expect(put).toBe(2); // train.jsonl and the manifest
    const second = await model.trainSFT(
      (async function* () {
        yield* rows;
      })(),
      { pollInterval: 5 },
    );
    expect(uploads()).toBe(put);
    expect(second.trainingDataUrl).toBe(first.trainingDataUrl);
    expect([first.datasetExisted, second.datasetExisted]).toEqual([false, true]);
    expect(first.trainingDataUrl).toMatch(/^wandb-artifact:\/\/\/acme\/sft\/same-sft-data-[0-9a-f]{12}:v0$/);
    const datasets = fake.svc.state.artifacts.list().filter((a) => a.type === "dataset");
    expect(datasets.filter((a) => a.state === "COMMITTED")).toHaveLength(1);
    // The name's hex is the start of W&B's digest of the artifact (MANIFEST_MD5).
    expect(first.trainingDataUrl).toContain(`-sft-data-${datasets[0]!.digest.slice(0, 12)}:`);
    expect(fake.svc.trainingJobs.map((j) => j.request["training_data_url"])).toEqual([
      first.trainingDataUrl,
      first.trainingDataUrl,
    ]);
    expect(second.step).toBe(2);

    // Other rows: another name, another upload.
    const other = await model.trainSFT([row("4+4?", "8")], { pollInterval: 5 });
    expect(other.trainingDataUrl).not.toBe(first.trainingDataUrl);
    expect(uploads()).toBe(put + 2);
  });
});

describe("the fake's SFT jobs learn their rows", () => {
  it("the trained checkpoint answers a trained conversation with its trained reply", async () => {
    const model = await fake.client.trainableModels.register({
      project: "sft",
      name: "learner",
      base_model: BASE_MODEL,
    });
    const conversation = (q: string) => [
      { role: "system" as const, content: "Answer with the number only." },
      { role: "user" as const, content: q },
    ];
    const taught = [
      { q: "What is 7 * 6?", a: "42" },
      { q: "What is 9 * 9?", a: "81" },
      { q: "What is 12 * 12?", a: "144" },
    ];
    const rows: SFTRow[] = taught.map(({ q, a }) => ({
      messages: [...conversation(q), { role: "assistant", content: a }],
    }));
    const { step } = await model.trainSFT(rows, { pollInterval: 5 });
    for (const { q, a } of taught)
      for (const seed of [1, 2, 3]) {
        const reply = await model.chat.completions.create({
          model: model.inferenceName(step),
          messages: conversation(q),
          seed,
          temperature: 1,
        });
        expect(reply.choices[0]?.message.content).toBe(a);
      }
    // Before the job, the base checkpoint knew none of it.
    const before = await model.chat.completions.create({ model: BASE_MODEL, messages: conversation("What is 7 * 6?") });
    expect(before.choices[0]?.message.content).not.toBe("42");
  });

  it('with assistant_turns: "last", only the last reply of a row is learned', async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "last", base_model: BASE_MODEL });
    const messages = [
      { role: "user" as const, content: "Say one." },
      { role: "assistant" as const, content: "one" },
      { role: "user" as const, content: "Say two." },
      { role: "assistant" as const, content: "two" },
    ];
    const { step } = await model.trainSFT([{ messages }], { config: { assistant_turns: "last" }, pollInterval: 5 });
    const ask = (upTo: number) =>
      model.chat.completions.create({ model: model.inferenceName(step), messages: messages.slice(0, upTo), seed: 4 });
    expect((await ask(3)).choices[0]?.message.content).toBe("two");
    expect((await ask(1)).choices[0]?.message.content).not.toBe("one");
  });

  it("200 rows in batches of two: num_sequences counts the 100 gradient steps ART's progress bar ticks", async () => {
    const model = await fake.client.trainableModels.register({ project: "sft", name: "many", base_model: BASE_MODEL });
    const rows = Array.from({ length: 200 }, (_, i) => row(`q${i}`, `a${i}`));
    for (const [config, steps] of [
      [{}, 100],
      [{ batch_size: 1 }, 200],
      [{ batch_size: 8 }, 25],
    ] as const) {
      const events: Array<{ type: string; data: Record<string, unknown> }> = [];
      await model.trainSFT(rows, { config, pollInterval: 5, onEvent: (e) => events.push(e) });
      expect(events[0]).toMatchObject({ type: "training_started", data: { num_sequences: steps } });
      expect(events.filter((e) => e.type === "gradient_step")).toHaveLength(steps);
    }
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
