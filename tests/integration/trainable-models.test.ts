/**
 * The training loop past job creation, over real HTTP against the fake service: the model
 * registry, checkpoints as cursor lists, job retrieve/events/follow with their fault cases, the
 * TrainableModel handle, and chat on the trained names.
 */
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  ConflictError,
  InferloopError,
  NotFoundError,
  RequestValidationError,
  type TrainableModel,
  type TrainingJobEvent,
  TrainingJobFailedError,
  type TrajectoryGroup,
} from "../../src/index.js";
import { paceEnd, pollWait } from "../../src/lib/training/follow-events.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const BASE = "OpenPipe/Qwen3-14B-Instruct";

const fake = useFakeService({ seedCalls: false, trainingStepMs: 2 });

function groups(prompt = "Say hi", replies = ["hi there", "hello"], rewards = [1, 0]): TrajectoryGroup[] {
  return [
    {
      trajectories: replies.map((reply, i) => ({
        messages_and_choices: [
          { role: "user", content: prompt },
          {
            finish_reason: "stop",
            index: 0,
            logprobs: { content: [] },
            message: { role: "assistant", content: reply },
          },
        ],
        reward: rewards[i]!,
      })),
    },
  ];
}

async function register(name = "agent"): Promise<TrainableModel> {
  return fake.client.trainableModels.register({ project: "rl", name, base_model: BASE });
}

async function collect(it: AsyncIterable<TrainingJobEvent>): Promise<TrainingJobEvent[]> {
  const out: TrainingJobEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe("trainable models", () => {
  it("register is idempotent by name; create refuses a second model of the same name with 409", async () => {
    const a = await register();
    const b = await register();
    expect(b.id).toBe(a.id);
    expect(a.entity).toBe("acme");
    expect(a.inferenceName()).toBe("wandb-artifact:///acme/rl/agent");
    expect(a.inferenceName(3)).toBe("wandb-artifact:///acme/rl/agent:step3");
    expect(fake.svc.requests.at(-1)!.json).toEqual({
      project: "rl",
      name: "agent",
      base_model: BASE,
      return_existing: true,
    });
    expect(fake.svc.requests.at(-1)!.headers.authorization).toBe(`Bearer ${fake.svc.apiKey}`);
    const err = await caught(() =>
      fake.client.trainableModels.create({ project: "rl", name: "agent", base_model: BASE }),
    );
    expect(err).toBeInstanceOf(ConflictError);
  });

  it("register is retried like a GET; create without an idempotency key is not", async () => {
    const retrying = clientFor(fake.svc, { maxRetries: 2 });
    fake.svc.inject(faults.serviceUnavailable({ path: "/v1/preview/models" }));
    const model = await retrying.trainableModels.register({ project: "rl", name: "r", base_model: BASE });
    expect(model.name).toBe("r");
    fake.svc.inject(faults.serviceUnavailable({ path: "/v1/preview/models" }));
    const before = fake.svc.requests.length;
    await expect(retrying.trainableModels.create({ project: "rl", name: "c", base_model: BASE })).rejects.toThrow();
    expect(fake.svc.requests.length - before).toBe(1);
  });

  it("refuses bad input before sending anything", async () => {
    const before = fake.svc.requests.length;
    const bad = [
      () => fake.client.trainableModels.create({ project: "rl", name: "", base_model: BASE }),
      () => fake.client.trainableModels.register({ project: "rl", base_model: BASE } as never),
      () => fake.client.trainableModels.checkpoints.delete("m", { steps: [1.5] }),
      () => fake.client.trainableModels.checkpoints.list("m", { limit: 101 }).toArray(),
      () => fake.client.trainableModels.checkpoints.list("m", { limit: 0 }).toArray(),
      () => fake.client.trainableModels.checkpoints.list("m", { order: "newest" as never }).toArray(),
      () => fake.client.trainableModels.delete("../models"),
      () => fake.client.trainableModels.delete(".."),
      () => fake.client.trainableModels.checkpoints.list("a?b").toArray(),
      () => fake.client.trainingJobs.follow("job/1")[Symbol.asyncIterator]().next(),
      () => fake.client.trainingJobs.retrieve(""),
      () => fake.client.trainingJobs.events.list("job", { limit: 1.5 }).toArray(),
      () =>
        fake.client.trainableModels.log("m", {
          split: "val",
          trajectory_groups: [{ trajectories: [{ reward: "1" }] }],
        } as never),
    ];
    for (const call of bad) {
      const err = await caught(call);
      expect(err).toBeInstanceOf(RequestValidationError);
    }
    const named = (await caught(bad[0]!)) as RequestValidationError;
    expect(named.issues[0]!.path).toBe("name");
    expect(fake.svc.requests.length).toBe(before);
  });

  it("lists base models, logs trajectories and deletes a model", async () => {
    expect(await fake.client.trainableModels.baseModels()).toContain(BASE);
    const model = await register();
    await fake.client.trainableModels.log(model.id, { split: "val", trajectory_groups: groups() });
    expect(fake.svc.requests.at(-1)!.path).toBe(`/v1/preview/models/${model.id}/log`);
    const done = await fake.client.trainableModels.delete(model.id);
    expect(done).toEqual({ model_id: model.id, deleted_checkpoints: 0, deleted_run: true });
    expect(await caught(() => fake.client.trainableModels.delete(model.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("training a model step after step", () => {
  it("train = create + follow: the step, the mean gradient metrics, a checkpoint per job", async () => {
    const model = await register();
    expect(await model.latestStep()).toBe(0);
    const seen: string[] = [];
    const first = await model.train(groups(), { pollInterval: 5, onEvent: (e) => seen.push(e.type) });
    expect(first.step).toBe(1);
    expect(seen[0]).toBe("training_started");
    expect(seen.at(-1)).toBe("training_ended");
    expect(seen.filter((t) => t === "gradient_step")).toHaveLength(2);
    expect(typeof first.metrics.loss).toBe("number");
    const events = await fake.client.trainingJobs.events.list(first.jobId).toArray();
    const losses = events.filter((e) => e.type === "gradient_step").map((e) => e.data.loss as number);
    expect(first.metrics.loss).toBeCloseTo((losses[0]! + losses[1]!) / 2, 10);
    const second = await model.train(groups(), { pollInterval: 5 });
    expect(second.step).toBe(2);
    expect(await model.latestStep()).toBe(2);
    const job = await fake.client.trainingJobs.retrieve(second.jobId);
    expect(job).toMatchObject({ id: second.jobId, model_id: model.id, status: "COMPLETED" });
  });

  it("train and trainSFT hand over the job's id as soon as it exists, before its first event", async () => {
    const model = await register();
    const seen: string[] = [];
    const rl = await model.train(groups(), {
      pollInterval: 5,
      onJobCreated: (id) => seen.push(`created ${id}`),
      onEvent: (e) => seen.push(e.type),
    });
    expect(seen.slice(0, 2)).toEqual([`created ${rl.jobId}`, "training_started"]);
    seen.length = 0;
    const sft = await model.trainSFT(
      [
        {
          messages: [
            { role: "user", content: "2+2?" },
            { role: "assistant", content: "4" },
          ],
        },
      ],
      { pollInterval: 5, onJobCreated: (id) => seen.push(`created ${id}`), onEvent: (e) => seen.push(e.type) },
    );
    expect(seen.slice(0, 2)).toEqual([`created ${sft.jobId}`, "training_started"]);
  });

  it("a short job is seen done long before pollInterval: a young job is polled sooner, then every pollInterval", async () => {
    fake.svc.state.trainable.stepMs = 10;
    const model = await register();
    // A minute between polls at a fixed interval: train would then wait a minute.
    const { jobId, step } = await model.train(groups(), { pollInterval: 60_000 });
    expect(step).toBe(1);
    const polls = fake.svc.requests.filter((r) => r.path === `/v1/preview/training-jobs/${jobId}/events`);
    expect(polls.length).toBeGreaterThan(1);
    expect(polls.length).toBeLessThan(12);
  });

  it("pollWait: a quarter of the time followed, from 25 ms, never above pollInterval", () => {
    expect([0, 50, 100, 400, 2_000, 4_000, 60_000].map((t) => pollWait(t, 1_000))).toEqual([
      25, 25, 25, 100, 500, 1_000, 1_000,
    ]);
    expect(pollWait(0, 5)).toBe(5);
    expect(pollWait(10_000, 0)).toBe(0);
  });

  it("paceEnd: when the job should end, by the pace of the gradient steps seen (training_ended one step after the last)", () => {
    // 10 of 40 steps in 100 ms: 31 more events at 10 ms each.
    expect(paceEnd(100, 10, 40)).toBe(310);
    expect(paceEnd(500, 40, 40)).toBeCloseTo(12.5);
    expect(paceEnd(100, 1, 40)).toBeUndefined();
    expect(paceEnd(100, 10, undefined)).toBeUndefined();
    expect(paceEnd(100, 60, 40)).toBe(0);
  });

  it("a failed job rejects with TrainingJobFailedError carrying the job id, the event and the message", async () => {
    const model = await register();
    fake.svc.inject(faults.trainingFailed("CUDA out of memory"));
    const err = (await caught(() => model.train(groups(), { pollInterval: 5 }))) as TrainingJobFailedError;
    expect(err).toBeInstanceOf(TrainingJobFailedError);
    expect(err).toBeInstanceOf(InferloopError);
    expect(err.event.type).toBe("training_failed");
    expect(err.message).toContain("CUDA out of memory");
    expect(err.jobId).toBe(fake.svc.trainingJobs[0]!.id);
    expect(await model.latestStep()).toBe(0);
  });

  it("follow rides out 5xx and resets on the events route without losing or repeating an event", async () => {
    const model = await register();
    const { id } = await fake.client.trainingJobs.create({ model_id: model.id, trajectory_groups: groups() });
    const path = `/v1/preview/training-jobs/${id}/events`;
    fake.svc.inject(faults.serviceUnavailable({ path, times: 2 }));
    fake.svc.inject(faults.reset({ path }));
    fake.svc.inject(faults.rateLimited({ path, retryAfter: 0 }));
    const events = await collect(fake.client.trainingJobs.follow(id, { pollInterval: 5 }));
    expect(events.map((e) => e.type)).toEqual(["training_started", "gradient_step", "gradient_step", "training_ended"]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("follow re-attaches from a saved cursor and yields only what came after it", async () => {
    const model = await register();
    const { id } = await fake.client.trainingJobs.create({ model_id: model.id, trajectory_groups: groups() });
    const all = await collect(fake.client.trainingJobs.follow(id, { pollInterval: 5 }));
    const resumed = await collect(fake.client.trainingJobs.follow(id, { after: all[1]!.id, pollInterval: 5 }));
    expect(resumed.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });

  it("follow's timeout names the job, says it may still run and how to re-attach", async () => {
    const slow = fake.svc.state.trainable;
    slow.stepMs = 60_000;
    const model = await register();
    const { id } = await fake.client.trainingJobs.create({ model_id: model.id, trajectory_groups: groups() });
    const err = (await caught(() =>
      collect(fake.client.trainingJobs.follow(id, { pollInterval: 5, timeout: 50 })),
    )) as Error;
    expect(err).toBeInstanceOf(InferloopError);
    expect(err.message).toContain(id);
    expect(err.message).toMatch(/may still be running/);
    expect(err.message).toMatch(/trainingJobs\.follow\(".*", \{ after: "evt-\d+" \}\)/);
  });

  it("an abort stops following at once", async () => {
    fake.svc.state.trainable.stepMs = 60_000;
    const model = await register();
    const { id } = await fake.client.trainingJobs.create({ model_id: model.id, trajectory_groups: groups() });
    const ac = new AbortController();
    const got: TrainingJobEvent[] = [];
    const run = (async () => {
      for await (const e of fake.client.trainingJobs.follow(id, { pollInterval: 60_000, signal: ac.signal })) {
        got.push(e);
        ac.abort();
      }
    })();
    expect(await caught(() => run)).toBeInstanceOf(APIUserAbortError);
    expect(got.map((e) => e.type)).toEqual(["training_started"]);
  });

  it("checkpoints are a cursor list: pages of `limit`, desc order, delete by steps", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const model = await register();
    for (let i = 0; i < 5; i++) await model.train(groups(), { pollInterval: 1 });
    const list = fake.client.trainableModels.checkpoints.list(model.id, { limit: 2 });
    const pages: number[][] = [];
    for await (const page of list.pages()) pages.push(page.map((c) => c.step));
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    const desc = await fake.client.trainableModels.checkpoints.list(model.id, { order: "desc" }).toArray();
    expect(desc.map((c) => c.step)).toEqual([5, 4, 3, 2, 1]);
    const res = await fake.client.trainableModels.checkpoints.delete(model.id, { steps: [1, 2, 9] });
    expect(res).toEqual({ deleted_count: 2, not_found_steps: [9] });
    expect((await fake.client.trainableModels.checkpoints.list(model.id).toArray()).map((c) => c.step)).toEqual([
      3, 4, 5,
    ]);
  });

  it("chat is served on trained names of existing steps, with a 404 in vLLM's envelope otherwise", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const model = await register();
    const ask = (name: string) =>
      fake.client.chat.completions.create({ model: name, messages: [{ role: "user", content: "Say hi" }] });
    expect((await ask(model.inferenceName())).model).toBe(model.inferenceName());
    const missing = (await caught(() => ask(model.inferenceName(1)))) as NotFoundError;
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toContain("does not exist");
    expect(await caught(() => ask("wandb-artifact:///acme/rl/nobody"))).toBeInstanceOf(NotFoundError);
    await model.train(groups(), { pollInterval: 1 });
    const reply = await ask(model.inferenceName(1));
    expect(reply.choices[0]!.message.content).toBeTypeOf("string");
  });

  it("the simulated policy leans toward the best-rewarded reply, more with every step", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const model = await register();
    const share = async (step?: number) => {
      let hits = 0;
      for (let seed = 0; seed < 40; seed++) {
        const r = await fake.client.chat.completions.create({
          model: model.inferenceName(step),
          seed,
          messages: [{ role: "user", content: "Say hi" }],
        });
        if (r.choices[0]!.message.content === "hi there") hits++;
      }
      return hits;
    };
    expect(await share()).toBe(0);
    await model.train(groups(), { pollInterval: 1 });
    await model.train(groups(), { pollInterval: 1 });
    const one = await share(1);
    const two = await share(2);
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(one);
  });
});

describe("cursor lists", () => {
  it("follow has_more through pages shorter than limit, with after = the last id", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const model = await register();
    const { id } = await fake.client.trainingJobs.create({
      model_id: model.id,
      trajectory_groups: groups("p", ["a", "b", "c", "d"], [1, 0, 1, 0]),
    });
    // A server that answers 2 items per page whatever the limit, still saying has_more.
    const all = await fake.client.trainingJobs.events.list(id).toArray();
    const path = `/v1/preview/training-jobs/${id}/events`;
    fake.svc.inject(faults.oddJson({ object: "list", data: all.slice(0, 2), has_more: true }, { path }));
    const before = fake.svc.requests.length;
    const got = await fake.client.trainingJobs.events.list(id, { limit: 50 }).toArray();
    expect(got.map((e) => e.id)).toEqual(all.map((e) => e.id));
    const second = fake.svc.requests[before + 1]!;
    expect(second.query).toContain(`after=${all[1]!.id}`);
    expect(second.query).toContain("limit=50");
  });
});
