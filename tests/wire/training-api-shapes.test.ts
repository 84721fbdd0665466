/**
 * The training API's example responses (W&B's OpenAPI spec, `tests/cases/training-api-cases.ts`)
 * served by a loopback server and read by the SDK as promised: models, checkpoint pages, the
 * delete answers, jobs, events followed to their end and the 422 `detail` envelope. The table's
 * requests run in the shared request-case runners.
 */

import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Inferloop, TrainingJobFailedError, UnprocessableEntityError } from "../../src/index.js";
import { TRAINING_API_SHAPES as S } from "../cases/training-api-cases.js";

interface Seen {
  method: string;
  url: string;
  body: unknown;
  auth: string | undefined;
}
const seen: Seen[] = [];
/** Per URL prefix, the answers to give in turn (the last one repeats). */
let answers: Array<[RegExp, Array<[number, unknown]>]> = [];
let server: Server;
let client: Inferloop;
const MODEL = S.model.id;

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ method: req.method!, url: req.url!, body: await body(req), auth: req.headers.authorization });
    const match = answers.find(([re]) => re.test(`${req.method} ${req.url}`));
    const queue = match?.[1] ?? [[200, {}]];
    const [status, payload] = queue.length > 1 ? queue.shift()! : queue[0]!;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  client = new Inferloop({ baseURL: `http://127.0.0.1:${port}`, apiKey: "k", maxRetries: 0 });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  answers = [
    [/^POST \/v1\/preview\/models$/, [[200, S.model]]],
    [/DELETE .*checkpoints/, [[200, S.deleteCheckpoints]]],
    [/checkpoints/, [[200, { ...S.page, data: [S.checkpoint] }]]],
    [/events/, [[200, { ...S.page, data: S.events }]]],
    [/^POST \/v1\/preview\/(sft-)?training-jobs$/, [[200, S.job]]],
  ];
});

describe("the spec's response shapes", () => {
  it("reads a model, a checkpoint page and the delete answers", async () => {
    const m = await client.trainableModels.register({ project: "rl", name: "agent", base_model: S.model.base_model });
    expect({ ...m }).toMatchObject(S.model);
    expect(seen[0]!.auth).toBe("Bearer k");
    expect(m.inferenceName(1)).toBe("wandb-artifact:///acme/rl/agent:step1");
    expect(await m.latestStep()).toBe(1);
    expect(seen.at(-1)!.url).toBe(`/v1/preview/models/${MODEL}/checkpoints?order=desc&limit=1`);
    answers.unshift([/^DELETE \/v1\/preview\/models\/[^/]+$/, [[200, S.deleteModel]]]);
    expect(await client.trainableModels.delete(MODEL)).toEqual(S.deleteModel);
    expect(await client.trainableModels.checkpoints.delete(MODEL, { steps: [1, 9] })).toEqual(S.deleteCheckpoints);
    answers.unshift([/base-models/, [[200, S.baseModels]]]);
    expect(await client.trainableModels.baseModels()).toEqual(S.baseModels);
  });

  it("keeps every field of a job and maps the 422 detail envelope", async () => {
    answers.unshift([
      /^GET \/v1\/preview\/training-jobs\/[^/]+$/,
      [[200, { ...S.job, status: "RUNNING", extra: { a: 1 } }]],
    ]);
    expect(await client.trainingJobs.retrieve(S.job.id)).toEqual({ ...S.job, status: "RUNNING", extra: { a: 1 } });
    answers.unshift([/events/, [[422, S.validationError]]]);
    const err = await client.trainingJobs.events
      .list(S.job.id)
      .toArray()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect((err as UnprocessableEntityError).detail).toEqual(S.validationError.detail);
  });

  it("follows events across short pages, 5xx and a repeated event, once each, to training_ended", async () => {
    const [a, b, c, d] = S.events;
    answers.unshift([
      /events/,
      [
        [200, { ...S.page, data: [a], has_more: true }],
        [200, { ...S.page, data: [b], has_more: false }],
        [503, { detail: "busy" }],
        [200, { ...S.page, data: [b, c], has_more: true }],
        [200, { ...S.page, data: [d], has_more: false }],
      ],
    ]);
    const got: string[] = [];
    for await (const e of client.trainingJobs.follow(S.job.id, { pollInterval: 1 })) got.push(e.id);
    expect(got).toEqual(["e1", "e2", "e3", "e4"]);
    const urls = seen.map((s) => new URL(s.url, "http://x").searchParams.get("after"));
    expect(urls).toEqual([null, "e1", "e2", "e2", "e3"]);
  });

  it("a training_failed event rejects with its error_message", async () => {
    answers.unshift([/events/, [[200, { ...S.page, data: [S.events[0], S.failedEvent] }]]]);
    const err = await (async () => {
      for await (const _ of client.trainingJobs.follow(S.job.id, { pollInterval: 1 })) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrainingJobFailedError);
    expect((err as TrainingJobFailedError).message).toContain("out of memory");
    expect((err as TrainingJobFailedError).event).toEqual(S.failedEvent);
  });
});
