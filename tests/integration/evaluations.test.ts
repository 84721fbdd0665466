/**
 * `client.evaluations` against the fake over loopback: what a run writes to Weave (the worked
 * example of a 3-row, 2-scorer evaluation: objects, op names, refs, parents, the imperative
 * marker, the summary), reading results back (with `eval_results/query`, and from the calls
 * query when a server has no such route), comparing two runs, an abort mid-run, rows that throw,
 * and refusals before anything is sent.
 */
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  type EvaluationResults,
  type EvaluationRunParams,
  Inferloop,
  RequestValidationError,
  rulerScorer,
} from "../../src/index.js";
import type { FakeCallRecord } from "../../src/testing/index.js";
import {
  DIGESTS,
  EVAL_A,
  EVAL_B,
  EVAL_PROJECT,
  EVAL_RECORDS,
  EVAL_RESULTS_CASES,
  ROWS,
  WORKED_EXAMPLE,
} from "../cases/evaluation-cases.js";
import { caught, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false, calls: [...EVAL_RECORDS] });

type Row = (typeof WORKED_EXAMPLE.dataset)[number];
const scorers: EvaluationRunParams<Row, unknown>["scorers"] = {
  exact: ({ row, output }) => output === row.answer,
  chars: ({ output }) => String(output).length,
};
const worked = (extra: Partial<EvaluationRunParams<Row, unknown>> = {}) =>
  fake.client.evaluations.run({
    project_id: EVAL_PROJECT,
    name: "qa",
    dataset: WORKED_EXAMPLE.dataset,
    model: { model: MODEL, temperature: 0 },
    scorers,
    ...extra,
  });

/** The calls of one trace, as the calls query returns them. */
async function traceOf(rootId: string): Promise<FakeCallRecord[]> {
  const [root] = await fake.client.calls.query({ project_id: EVAL_PROJECT, filter: { call_ids: [rootId] } }).toArray();
  return (await fake.client.calls
    .query({ project_id: EVAL_PROJECT, filter: { trace_ids: [root!.trace_id] } })
    .toArray()) as unknown as FakeCallRecord[];
}

const opOf = (call: { op_name: string }) => /\/op\/([^:]+):/.exec(call.op_name)?.[1];

/** The value published under an object ref. */
function objectAt(ref: string): Record<string, unknown> {
  const [, project, id, digest] = /^weave:\/\/\/([^/]+\/[^/]+)\/(?:object|op)\/([^:]+):(.+)$/.exec(ref)!;
  const found = fake.svc.state.weave.read(project!, id!, digest!);
  expect(found, ref).toBeDefined();
  return found!.val as Record<string, unknown>;
}

describe("evaluations.run writes what Weave's EvaluationLogger writes", () => {
  it("a 3-row, 2-scorer run: the objects, the call tree, the marker and the summary", async () => {
    const run = await worked();
    const want = WORKED_EXAMPLE.expected;
    expect(run.summary).toEqual(want.summary);
    expect(run).toMatchObject({ rows: 3, failed: 0 });

    const calls = await traceOf(run.id);
    const byId = new Map(calls.map((c) => [c.id, c]));
    for (const spec of want.calls) {
      const matching = calls.filter((c) => opOf(c) === spec.op);
      expect(matching, spec.op).toHaveLength(spec.count);
      for (const c of matching) {
        // Every op name is a ref to a published op of the project.
        expect(c.op_name).toMatch(new RegExp(`^weave:///${EVAL_PROJECT}/op/${spec.op.replace(".", "\\.")}:[\\w]+$`));
        expect(objectAt(c.op_name)).toMatchObject({ _type: "CustomWeaveType", weave_type: { type: "Op" } });
        const parent = c["parent_id"] == null ? null : opOf(byId.get(c["parent_id"] as string)!);
        expect(parent, spec.op).toBe(spec.parent);
        expect(Object.keys(c.inputs).sort(), spec.op).toEqual([...spec.inputs].sort());
        expect(c.attributes, spec.op).toMatchObject(spec.marker);
        expect(c["ended_at"], spec.op).not.toBeNull();
        expect(c["exception"], spec.op).toBeNull();
      }
    }
    const root = calls.find((c) => c.id === run.id)!;
    expect(root["parent_id"]).toBeNull();
    expect(root.inputs).toEqual({ self: run.evaluationRef, model: run.modelRef });
    expect(root["display_name"]).toBe(`${MODEL} on qa`);
    // The root's output and the summarize call's are the summary the UI reads, with the latency.
    const summarize = calls.find((c) => opOf(c) === "Evaluation.summarize")!;
    for (const output of [root["output"], summarize["output"]]) {
      expect(output).toMatchObject(want.summary);
      expect((output as { model_latency: { mean: number } }).model_latency.mean).toBeGreaterThanOrEqual(0);
    }
    expect(summarize.inputs).toEqual({ self: run.evaluationRef });

    for (const pas of calls.filter((c) => opOf(c) === "Evaluation.predict_and_score")) {
      const row = pas.inputs["example"] as Row;
      expect(WORKED_EXAMPLE.dataset).toContainEqual(row);
      expect(pas.inputs).toMatchObject({ self: run.evaluationRef, model: run.modelRef });
      const children = calls.filter((c) => c["parent_id"] === pas.id);
      const predict = children.find((c) => opOf(c) === "Model.predict")!;
      expect(predict.inputs).toEqual({ self: run.modelRef, inputs: row });
      const output = predict["output"];
      expect(output).toBe(row.prompt.slice("echo ".length));
      expect(pas["output"]).toMatchObject({
        output,
        scores: { exact: output === row.answer, chars: String(output).length },
      });
      for (const name of ["exact", "chars"]) {
        const scorer = children.find((c) => opOf(c) === `${name}.score`)!;
        expect(scorer.inputs["output"]).toBe(output);
        expect(objectAt(scorer.inputs["self"] as string)).toMatchObject({ name });
        expect(scorer["output"]).toEqual((pas["output"] as { scores: Record<string, unknown> }).scores[name]);
      }
    }

    // The objects: the Evaluation names the Dataset (its rows in a table) and the scorers.
    const evaluation = objectAt(run.evaluationRef);
    const dataset = objectAt(evaluation["dataset"] as string);
    const model = objectAt(run.modelRef);
    const scorerObjects = ["exact", "chars"].map((name) =>
      objectAt(
        `weave:///${EVAL_PROJECT}/object/${name}:${fake.svc.state.weave.read(EVAL_PROJECT, name, "latest")!.digest}`,
      ),
    );
    for (const [val, spec] of [dataset, model, ...scorerObjects, evaluation].map(
      (v, i) => [v, want.objects[i]!] as const,
    ))
      expect(val).toMatchObject({ _type: spec.class, _class_name: spec.class, _bases: spec.bases });
    expect(evaluation).toMatchObject({ name: "qa", scorers: ["exact", "chars"] });
    expect(model).toMatchObject({ name: MODEL, model: MODEL, temperature: 0 });
    const table = /^weave:\/\/\/acme\/evals\/table\/(\w+)$/.exec(dataset["rows"] as string)![1]!;
    expect(fake.svc.state.weave.tables.get(`${EVAL_PROJECT}\u0000${table}`)?.rows).toEqual(WORKED_EXAMPLE.dataset);
    // The op sources were uploaded as files.
    expect(fake.svc.requests.filter((r) => r.path === "/file/create")).toHaveLength(6);
  });

  it("runs of one definition share the Evaluation object; each model is its own Model", async () => {
    const base = await worked();
    const other = await worked({ model: (row: Row) => row.answer });
    expect(other.evaluationRef).toBe(base.evaluationRef);
    expect(other.modelRef).not.toBe(base.modelRef);
    expect(other.summary).toEqual({ exact: { true_count: 3, true_fraction: 1 }, chars: { mean: 2 } });
  });

  it("reads a dataset already in Weave by its ref, page by page", async () => {
    const first = await worked();
    const ref = objectAt(first.evaluationRef)["dataset"] as string;
    const again = await worked({ dataset: { ref } });
    expect(again.summary).toEqual(first.summary);
    expect(again.evaluationRef).toBe(first.evaluationRef);
    expect(fake.svc.requests.some((r) => r.path === "/table/query")).toBe(true);
  });
});

describe("a run that does not go to plan", () => {
  it("records a row that throws on that row, and goes on", async () => {
    const run = await worked({
      model: async (row: Row) => {
        if (row.answer === "9") throw new RangeError("no nines");
        return row.answer;
      },
      scorers: {
        ...scorers,
        picky: ({ output }) => {
          if (output === "Lyon") throw new Error("not Lyon");
          return true;
        },
      },
    });
    expect(run).toMatchObject({ rows: 3, failed: 2 });
    // Two rows predicted; the throwing scorer scored one of them.
    expect(run.summary).toEqual({
      exact: { true_count: 2, true_fraction: 1 },
      chars: { mean: (1 + 4) / 2 },
      picky: { true_count: 1, true_fraction: 1 },
    });
    const calls = await traceOf(run.id);
    const failed = calls.filter((c) => c["exception"] != null);
    expect(failed.map((c) => [opOf(c), c["exception"]]).sort()).toEqual([
      ["Evaluation.predict_and_score", "RangeError: no nines"],
      ["Model.predict", "RangeError: no nines"],
      ["picky.score", "Error: not Lyon"],
    ]);
    expect(calls.find((c) => c.id === run.id)!["exception"]).toBeNull();
  });

  it("an abort mid-run ends the evaluation as failed, with nothing left open", async () => {
    const controller = new AbortController();
    const rows = Array.from({ length: 20 }, (_, i) => ({ prompt: `echo ${i}`, answer: String(i) }));
    let started = 0;
    const err = await caught(() =>
      fake.client.evaluations.run({
        project_id: EVAL_PROJECT,
        name: "long",
        dataset: rows,
        model: async (row, { signal }) => {
          // The 7th prediction aborts the run: the six before it are whole, the ones in flight are not.
          started += 1;
          if (started === 7) controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 5));
          signal.throwIfAborted();
          return row.answer;
        },
        scorers: { exact: ({ row, output }) => output === row.answer },
        concurrency: 2,
        signal: controller.signal,
      }),
    );
    expect(err).toBeInstanceOf(APIUserAbortError);
    const [root] = await fake.client.calls
      .query({
        project_id: EVAL_PROJECT,
        filter: { op_names: [`weave:///${EVAL_PROJECT}/op/Evaluation.evaluate:*`], trace_roots_only: true },
      })
      .toArray()
      .then((all) => all.filter((c) => c.inputs["self"]?.toString().includes("/object/long:")));
    expect(root).toBeDefined();
    expect(root!.exception).toMatch(/^APIUserAbortError: The evaluation was aborted after \d+ rows\.$/);
    expect(root!.summary?.weave?.status).toBe("error");
    const calls = await traceOf(root!.id);
    expect(calls.filter((c) => c["ended_at"] == null)).toEqual([]);
    expect(calls.some((c) => opOf(c) === "Evaluation.summarize")).toBe(false);
    const written = calls.filter((c) => opOf(c) === "Evaluation.predict_and_score").length;
    // The rows scored before the abort are written whole; the rest are not written at all.
    expect(written).toBeGreaterThanOrEqual(4);
    expect(written).toBeLessThanOrEqual(6);
    expect(root!.exception).toBe(`APIUserAbortError: The evaluation was aborted after ${written} rows.`);
  });

  it("refuses bad params before sending anything", async () => {
    const bad = [
      [{ project_id: "evals" }, /project_id: must be "<entity>\/<project>"/],
      [{ dataset: [{ question: "2+2?" }] }, /dataset\.0: a chat model reads each row's `messages`.*or `prompt`/],
      [{ dataset: [] }, /dataset: must hold at least one row/],
      [{ dataset: { ref: "qa-set" } }, /dataset: must be rows/],
      [{ scorers: { model_latency: () => 1 } }, /scorers\.model_latency: a scorer's name/],
      [{ scorers: {} }, /scorers: must name at least one scorer/],
      [{ concurrency: 0 }, /concurrency: must be an integer >= 1/],
      [{ model: { model: MODEL, messages: [] } }, /model: chat parameters carry no messages/],
      [{ scorer: scorers }, /unknown option "scorer" \(did you mean "scorers"\?\)/],
    ] as const;
    for (const [change, message] of bad) {
      const err = await caught(() => worked(change as Partial<EvaluationRunParams<Row, unknown>>));
      expect(err, JSON.stringify(change)).toBeInstanceOf(RequestValidationError);
      expect((err as Error).message).toMatch(message);
    }
    expect(fake.svc.requests).toEqual([]);
  });
});

/** The case's rows and summary as `results` gives them: without the `<scorer>.score` copies. */
function withoutCopies(scores: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(scores).filter(([k]) => !(k.endsWith(".score") && k.slice(0, -6) in scores)),
  );
}

function expectCase(answer: EvaluationResults): void {
  const c = EVAL_RESULTS_CASES.find((x) => x.name === "what client.evaluations.results asks")!;
  expect(answer.total_rows).toBe(c.total_rows);
  expect(answer.rows.map((r) => r.row_digest)).toEqual(c.rows.map((r) => DIGESTS[r.row]));
  c.rows.forEach((want, i) => {
    const row = answer.rows[i]!;
    expect(row.raw_data_row).toEqual(ROWS[want.row]);
    for (const [id, trials] of Object.entries(want.evaluations))
      expect(row.evaluations!.find((e) => e.evaluation_call_id === id)!.trials!.map((t) => t.scores)).toEqual(
        trials.map(withoutCopies),
      );
  });
  for (const e of answer.summary!.evaluations!) {
    const want = c.summary![e.evaluation_call_id]!;
    expect(e.trial_count).toBe(want.trial_count);
    expect(e.scorer_stats!.map((s) => s.scorer_key).sort()).toEqual(
      want.stats
        .map((s) => s[0])
        .filter((k) => !k.endsWith(".score"))
        .sort(),
    );
  }
}

describe("evaluations.results and compare", () => {
  it("reads evaluations back with eval_results/query, each score once", async () => {
    expectCase(await fake.client.evaluations.results({ project_id: EVAL_PROJECT, ids: [EVAL_A, EVAL_B] }));
    expect(fake.svc.requests.map((r) => r.path)).toEqual([`/v2/${EVAL_PROJECT}/eval_results/query`]);
  });

  it("groups them from the calls query on a server without eval_results (404)", async () => {
    fake.svc.state.inject({ kind: "status", status: 404, path: /eval_results/, body: { detail: "Not Found" } });
    expectCase(await fake.client.evaluations.results({ project_id: EVAL_PROJECT, ids: [EVAL_A, EVAL_B] }));
    expect(fake.svc.requests.filter((r) => r.path === "/calls/stream_query").length).toBeGreaterThanOrEqual(3);
  });

  it("compares two evaluations per scorer and per row, and prints a table", async () => {
    const base = await worked();
    // Right where the base model was wrong, but longer: one score higher, one lower, a tie.
    const tuned = await worked({ model: (row: Row) => row.answer });
    const comparison = await fake.client.evaluations.compare({
      project_id: EVAL_PROJECT,
      baseline: base.id,
      candidate: tuned.id,
    });
    expect(comparison.scorers).toEqual([
      { scorer: "exact", baseline: 2 / 3, candidate: 1, difference: 1 - 2 / 3 },
      { scorer: "chars", baseline: 7 / 3, candidate: 2, difference: 2 - 7 / 3 },
    ]);
    expect(comparison.wins).toEqual({ candidate: 0, baseline: 0, tie: 3 });
    const lyon = comparison.rows.find((r) => (r.row as Row).answer === "Lyon")!;
    expect(lyon).toMatchObject({
      winner: "tie",
      scores: { exact: { baseline: 0, candidate: 1 }, chars: { baseline: 5, candidate: 4 } },
    });
    const table = comparison.format();
    expect(table).toContain(`baseline:  ${MODEL} on qa`);
    expect(table).toContain("candidate: model on qa");
    expect(table).toMatch(/exact\s+0\.667\s+1\.000\s+\+0\.333/);
    expect(table).toMatch(/chars\s+2\.333\s+2\.000\s+-0\.333/);
    expect(table).toContain("rows: candidate won 0, baseline won 0, tied 3 (of 3)");
    expect(String(comparison)).toBe(table);

    // On exact answers alone, the row it got right is the candidate's.
    const [b, c] = await Promise.all([
      worked({ scorers: { exact: scorers.exact! } }),
      worked({ scorers: { exact: scorers.exact! }, model: (row: Row) => row.answer }),
    ]);
    const exactly = await fake.client.evaluations.compare({
      project_id: EVAL_PROJECT,
      baseline: b.id,
      candidate: c.id,
    });
    expect(exactly.wins).toEqual({ candidate: 1, baseline: 0, tie: 2 });
    expect(exactly.rows.find((r) => r.winner === "candidate")!.row).toEqual(WORKED_EXAMPLE.dataset[2]);
    const reversed = await fake.client.evaluations.compare({
      project_id: EVAL_PROJECT,
      baseline: c.id,
      candidate: b.id,
    });
    expect(reversed.wins).toEqual({ candidate: 0, baseline: 1, tie: 2 });
  });

  it("compares the stored evaluations: rows one of them lacks have no winner", async () => {
    const comparison = await fake.client.evaluations.compare({
      project_id: EVAL_PROJECT,
      baseline: EVAL_A,
      candidate: EVAL_B,
    });
    expect(comparison.baseline).toEqual({
      id: EVAL_A,
      model_ref: expect.stringContaining("/base:"),
      display_name: "base on qa",
    });
    expect(comparison.scorers.find((s) => s.scorer === "politeness")).toEqual({
      scorer: "politeness",
      baseline: undefined,
      candidate: 0.75,
      difference: undefined,
    });
    expect(Object.fromEntries(comparison.rows.map((r) => [r.row_digest, r.winner]))).toEqual({
      [DIGESTS.r1]: "tie",
      [DIGESTS.r2]: undefined,
      [DIGESTS.r3]: undefined,
      [DIGESTS.r4]: undefined,
    });
  });

  it("refuses bad ids before sending", async () => {
    const err = await caught(() => fake.client.evaluations.results({ project_id: EVAL_PROJECT, ids: [] }));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toContain("ids: must name at least one evaluation");
    expect(fake.svc.requests).toEqual([]);
  });
});

describe("scorers", () => {
  it("rulerScorer grades each reply with the judge", async () => {
    const run = await worked({
      scorers: { judge: rulerScorer({ client: fake.client, model: MODEL, rubric: "- The right answer scores 1." }) },
    });
    const judge = run.summary["judge"] as { mean: number };
    expect(judge.mean).toBeGreaterThanOrEqual(0);
    expect(judge.mean).toBeLessThanOrEqual(1);
    const judged = fake.svc.requests.filter(
      (r) => r.path === "/v1/chat/completions" && JSON.stringify(r.json).includes("ruler_scores"),
    );
    expect(judged).toHaveLength(3);
  });
});

describe("where a model is called", () => {
  it("a trained checkpoint's name on the Training host, another name on baseURL", async () => {
    const training = fake.svc.url;
    const client = new Inferloop({
      baseURL: "http://127.0.0.1:9",
      trainingBaseURL: training,
      traceBaseURL: fake.svc.url,
      apiKey: fake.svc.apiKey,
      username: fake.svc.username,
      password: fake.svc.password,
      maxRetries: 0,
    });
    const model = await client.trainableModels.register({
      project: "evals",
      name: "routed",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    const run = await client.evaluations.run({
      project_id: EVAL_PROJECT,
      name: "qa",
      dataset: WORKED_EXAMPLE.dataset,
      model: model.inferenceName(),
      scorers,
    });
    expect(run).toMatchObject({ rows: 3, failed: 0 });
    // The inference host (a closed port) was never called: every prediction went to training.
    expect(fake.svc.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(3);
  });
});
