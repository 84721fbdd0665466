/**
 * Writing a W&B run's history on the wire (msw), as W&B's Go core sends it: `RunResumeStatus`
 * then `UpsertBucket` (the metric definitions in the whole config), file_stream bodies with the
 * history lines at their offsets and the whole summary on line 0, `complete` with the exit code
 * last; Basic `api:<key>` on `wandbBaseURL` only; a resumed run continued, a 5xx resent as it
 * was (no line twice), a refusal said once. And `trainLoop`'s `logTo` checks.
 */
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { RequestValidationError } from "../../src/index.js";
import { RunWriter, type RunWriterOptions } from "../../src/lib/wandb-runs/run-writer.js";
import { BASE, KEY, MODEL_ID, makeClient, useMsw } from "../core/msw-setup.js";

const { server, seen } = useMsw();
const WANDB = "https://api.wandb.test";
const RUN = { entity: "acme", project: "rl", runId: "r1" };
const STREAM = `${WANDB}/files/acme/rl/r1/file_stream`;

interface Op {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}
interface Body {
  files?: Record<string, { offset: number; content: string[] }>;
  complete?: boolean;
  exitcode?: number;
}

/**
 * A W&B double: answers the two GraphQL operations (the run as `existing` says) and the run's
 * file_stream, keeping history lines by offset as the backend does; `failStream` answers the
 * first file_stream requests with 503.
 */
function wandb(options: { existing?: Record<string, unknown>; failStream?: number; refuse?: number } = {}) {
  const ops: Op[] = [];
  const bodies: Body[] = [];
  const lines: string[] = [];
  let fail = options.failStream ?? 0;
  server.use(
    http.post(`${WANDB}/graphql`, async ({ request }) => {
      const op = (await request.json()) as Op;
      ops.push(op);
      if (options.refuse !== undefined)
        return HttpResponse.json({ errors: [{ message: "permission denied" }] }, { status: options.refuse });
      if (op.operationName === "RunResumeStatus")
        return HttpResponse.json({ data: { model: { bucket: options.existing ?? null } } });
      return HttpResponse.json({
        data: {
          upsertBucket: {
            bucket: {
              id: "UnVuOnYxOnIx",
              name: "r1",
              project: { name: "rl", entity: { name: "acme" } },
              historyLineCount: lines.length,
            },
            inserted: options.existing === undefined,
          },
        },
      });
    }),
    http.post(STREAM, async ({ request }) => {
      const body = (await request.json()) as Body;
      bodies.push(body);
      if (fail-- > 0)
        return HttpResponse.json({ error: "upstream" }, { status: 503, headers: { "retry-after-ms": "1" } });
      const history = body.files?.["wandb-history.jsonl"];
      if (history !== undefined) lines.splice(history.offset, history.content.length, ...history.content);
      return HttpResponse.json({ exitcode: null, limits: {} });
    }),
  );
  return { ops, bodies, rows: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

function writer(options: RunWriterOptions & { maxRetries?: number } = {}) {
  const { maxRetries = 1, ...rest } = options;
  const client = makeClient({ wandbBaseURL: WANDB, maxRetries });
  const httpClient = (client.artifacts as unknown as { _http: HttpClient })._http;
  return new RunWriter(httpClient, RUN, { transmitIntervalMs: 0, stepMetric: "training_step", ...rest });
}

describe("RunWriter on the wire", () => {
  it("opens the run as W&B's SDK does, with Basic api:<key> on wandbBaseURL only", async () => {
    const w = wandb();
    const run = writer();
    run.log({ training_step: 1, "train/reward": 0.5 });
    await run.finish(0);
    expect(w.ops.map((o) => o.operationName)).toEqual(["RunResumeStatus", "UpsertBucket", "UpsertBucket"]);
    const [status, upsert, defined] = w.ops;
    expect(status!.variables).toEqual({ project: "rl", entity: "acme", name: "r1" });
    expect(status!.query).toContain("bucket(name: $name, missingOk: true)");
    expect(upsert!.variables).toEqual({ name: "r1", project: "rl", entity: "acme" });
    expect(upsert!.query).toContain(
      "upsertBucket(input: { id: $id, name: $name, modelName: $project, entityName: $entity",
    );
    // The metric definitions go in the whole config, as W&B's SDK records define_metric.
    expect(JSON.parse(defined!.variables.config as string)).toEqual({
      _wandb: {
        value: {
          m: [
            { "1": "training_step", "6": [3] },
            { "1": "train/reward", "5": 1, "6": [1] },
          ],
        },
      },
    });
    const auth = `Basic ${Buffer.from(`api:${KEY}`).toString("base64")}`;
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.url.origin).toBe(WANDB);
      expect(s.headers.get("authorization")).toBe(auth);
    }
  });

  it("file_stream: lines at consecutive offsets, _step counting up, the whole summary on line 0, complete last", async () => {
    const w = wandb();
    // At most one request per minute: the third row waits, and goes with the last request.
    const run = writer({ transmitIntervalMs: 60_000 });
    run.log({ training_step: 1, "train/reward": 0.5, "loss/train": Number.NaN });
    run.log({ training_step: 1, "val/reward": 0.25, "val/x": Number.POSITIVE_INFINITY });
    await new Promise((r) => setTimeout(r, 50));
    run.log({ training_step: 2, "train/reward": 0.75 });
    await run.finish(1);
    expect(w.bodies.map((b) => b.files?.["wandb-history.jsonl"]?.offset)).toEqual([0, 2]);
    expect(w.bodies.map((b) => b.files?.["wandb-history.jsonl"]?.content.length)).toEqual([2, 1]);
    const last = w.bodies.at(-1)!;
    expect(last).toMatchObject({ complete: true, exitcode: 1 });
    expect(w.bodies.slice(0, -1).every((b) => b.complete === undefined)).toBe(true);
    const rows = w.rows();
    expect(rows.map((r) => r._step)).toEqual([0, 1, 2]);
    expect(rows.map((r) => r.training_step)).toEqual([1, 1, 2]);
    // NaN and infinities are left out: JSON would carry them as null.
    expect(rows[0]).not.toHaveProperty("loss/train");
    expect(rows[1]).not.toHaveProperty("val/x");
    for (const r of rows) {
      expect(typeof r._runtime).toBe("number");
      expect(r._timestamp as number).toBeGreaterThan(1.7e9);
    }
    const summary = last.files!["wandb-summary.json"]!;
    expect(summary.offset).toBe(0);
    expect(JSON.parse(summary.content[0]!)).toMatchObject({
      training_step: 2,
      "train/reward": 0.75,
      "val/reward": 0.25,
      _step: 2,
    });
  });

  it("resumes a run: history appended at its line count, _step after its last, its summary and config kept", async () => {
    const w = wandb({
      existing: {
        id: "UnVuOnYxOnIx",
        name: "r1",
        historyLineCount: 5,
        historyTail: JSON.stringify(['{"_step":3,"_runtime":10}', '{"_step":7,"_runtime":100.5}']),
        summaryMetrics: JSON.stringify({ "train/reward": 0.1, old: 1, _step: 7 }),
        config: JSON.stringify({ lr: { value: 0.1 }, _wandb: { value: { t: { "1": [1] } } } }),
      },
    });
    const run = writer();
    run.log({ training_step: 4, "train/reward": 0.9 });
    await run.finish(0);
    const upserts = w.ops.filter((o) => o.operationName === "UpsertBucket");
    // The storage id the resume status gave is sent back, as Go's upserter does.
    expect(upserts[0]!.variables).toMatchObject({ id: "UnVuOnYxOnIx", name: "r1" });
    const config = JSON.parse(upserts[1]!.variables.config as string);
    expect(config.lr).toEqual({ value: 0.1 });
    expect(config._wandb.value.t).toEqual({ "1": [1] });
    const body = w.bodies[0]!;
    const history = body.files!["wandb-history.jsonl"]!;
    expect(history.offset).toBe(5);
    const line = JSON.parse(history.content[0]!);
    expect(line._step).toBe(8);
    expect(line._runtime).toBeGreaterThanOrEqual(100.5);
    expect(JSON.parse(body.files!["wandb-summary.json"]!.content[0]!)).toMatchObject({
      old: 1,
      "train/reward": 0.9,
      _step: 8,
    });
  });

  it("a 5xx is sent again as it was: the same lines at the same offsets, none twice", async () => {
    const w = wandb({ failStream: 1 });
    const run = writer({ maxRetries: 2 });
    run.log({ training_step: 1, "train/reward": 0.5 });
    run.log({ training_step: 1, "val/reward": 0.4 });
    await run.finish(0);
    expect(w.bodies[1]).toEqual(w.bodies[0]);
    expect(w.rows().map((r) => r._step)).toEqual([0, 1]);
  });

  it("when the pipeline's retries are spent, the rows are kept and go with the next request, at their offsets", async () => {
    const w = wandb({ failStream: 1 });
    const failures: unknown[] = [];
    const run = writer({ maxRetries: 0, onFailure: (f) => failures.push(f) });
    run.log({ training_step: 1, "train/reward": 0.5 });
    await new Promise((r) => setTimeout(r, 50));
    run.log({ training_step: 2, "train/reward": 0.6 });
    await run.finish(0);
    const offsets = w.bodies.map((b) => b.files?.["wandb-history.jsonl"]?.offset);
    expect(offsets).toEqual([0, 0]);
    expect(w.bodies[1]!.files!["wandb-history.jsonl"]!.content[0]).toBe(
      w.bodies[0]!.files!["wandb-history.jsonl"]!.content[0],
    );
    expect(w.rows().map((r) => [r._step, r.training_step])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(failures).toEqual([expect.objectContaining({ final: false })]);
  });

  it("a refusal ends the writing: told once, nothing sent after it", async () => {
    const w = wandb({ refuse: 403 });
    const failures: Array<{ final: boolean; unsent: number }> = [];
    const run = writer({ onFailure: (f) => failures.push(f) });
    run.log({ training_step: 1, "train/reward": 0.5 });
    await new Promise((r) => setTimeout(r, 50));
    run.log({ training_step: 2, "train/reward": 0.6 });
    await run.finish(0);
    expect(w.ops.map((o) => o.operationName)).toEqual(["RunResumeStatus"]);
    expect(w.bodies).toEqual([]);
    expect(failures).toEqual([expect.objectContaining({ final: true, unsent: 1 })]);
  });

  it("a run with nothing to send gets a heartbeat ({}), so W&B does not mark it crashed", async () => {
    const w = wandb();
    const run = writer({ heartbeatMs: 10 });
    run.log({ training_step: 1, "train/reward": 0.5 });
    await expect.poll(() => w.bodies.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await run.finish(0);
    expect(w.bodies[1]).toEqual({});
    expect(w.rows()).toHaveLength(1);
  });

  it("a writer that logged nothing sends nothing when it finishes", async () => {
    const w = wandb();
    await writer().finish(0);
    expect(w.ops).toEqual([]);
    expect(seen).toEqual([]);
  });
});

describe("trainLoop's logTo", () => {
  const model = {
    id: MODEL_ID,
    entity: "acme",
    project: "rl",
    name: "agent",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  };
  const register = async (runId?: string) => {
    server.use(
      http.post(`${BASE}/v1/preview/models`, () =>
        HttpResponse.json(runId === undefined ? model : { ...model, run_id: runId }),
      ),
    );
    return makeClient({ wandbBaseURL: WANDB }).trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: model.base_model,
    });
  };
  const options = { steps: 1, maxStepsOffPolicy: 0, rollouts: () => [] };

  it('logTo: "wandb" for a model without a W&B run is refused at once, naming the fix', async () => {
    const trainable = await register();
    const err = (() => {
      try {
        trainable.trainLoop({ ...options, logTo: "wandb" });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toContain("logTo");
    expect((err as Error).message).toContain("logTo: false");
    expect(seen.map((s) => s.url.pathname)).toEqual(["/v1/preview/models"]);
  });

  it('a logTo that is neither "wandb" nor false is refused with what it takes', async () => {
    const trainable = await register("r1");
    expect(() => trainable.trainLoop({ ...options, logTo: "weave" as never })).toThrow(
      /logTo.*must be "wandb" \(the model's W&B run\) or false/,
    );
  });
});
