import { validateInput } from "../core/checks/input-checks.js";
import type { HttpClient } from "../core/pipeline/http-client.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { EvaluationComparison } from "../lib/evaluations/compare.js";
import type { EvaluationRow, EvaluationRun, EvaluationRunParams } from "../lib/evaluations/types.js";
import type { ChatCreate } from "../wire/chat/chat-create.js";
import type { EvaluationCompareParams, EvaluationResultsParams } from "../wire/evaluations/request-schema.js";
import type { EvaluationResults } from "../wire/evaluations/types.js";
import { Calls } from "./calls.js";

/**
 * Evaluations in Weave (Basic auth, `traceBaseURL`): score a model over a dataset and record it
 * as Weave's own `EvaluationLogger` does, so it shows in Weave's Evals tab and opens in its
 * Compare view; read evaluations back and compare two.
 */
export class Evaluations extends APIResource {
  readonly #chat: ChatCreate;
  readonly #checkpointChat: ChatCreate;

  /**
   * @internal Made by the client: `chat` calls a model given by name, `checkpointChat` (the
   * Training host, which serves them) a trained checkpoint (`wandb-artifact:///...`).
   */
  constructor(http: HttpClient, chat: ChatCreate, checkpointChat: ChatCreate) {
    super(http);
    this.#chat = chat;
    this.#checkpointChat = checkpointChat;
  }

  /**
   * Runs `model` over `dataset`, scores each prediction with every scorer, and records it all in
   * Weave: the Dataset, Model, Scorer and Evaluation objects, then an `Evaluation.evaluate` call
   * with one `Evaluation.predict_and_score` per row (`Model.predict` and `<scorer>.score`
   * under it) and `Evaluation.summarize`. `concurrency` predictions run at a time (default 8);
   * each row is written once scored (with the others scored meanwhile, in batches of up to 32
   * rows or 200 ms), and only running sums are kept, so memory does not grow with the rows. A row whose prediction or scorer throws is recorded with its
   * error and counted in `failed`; the others go on. An abort (`signal`) ends the evaluation as
   * failed (never left running) and rejects with `APIUserAbortError`. The model is chat
   * parameters or a model name (each row's `messages`, or its `prompt`, is sent; the output is
   * the reply's text) or a function of the row. Resolves to the evaluation's id (its root
   * call's), the Evaluation and Model refs, and the summary by scorer: `{ mean }` for numbers,
   * `{ true_fraction, true_count }` for booleans. A trained checkpoint's name
   * (`model.inferenceName(step)`) is called on the Training host (`trainingBaseURL`), which
   * serves checkpoints; other names on `baseURL`.
   *
   * @example
   * ```ts
   * const run = await client.evaluations.run({
   *   project_id: "acme/agents",
   *   name: "arithmetic",
   *   dataset: [
   *     { prompt: "2+2?", answer: "4" },
   *     { prompt: "3*3?", answer: "9" },
   *   ],
   *   model: { model: "Qwen/Qwen3-8B", temperature: 0 },
   *   scorers: {
   *     exact: ({ row, output }) => output === row.answer,
   *     short: ({ output }) => String(output).length < 20,
   *   },
   * });
   * console.log(run.id, run.summary.exact);
   * ```
   */
  run<Row extends EvaluationRow, Output = unknown>(params: EvaluationRunParams<Row, Output>): Promise<EvaluationRun> {
    const model = params?.model;
    const name = typeof model === "string" ? model : typeof model === "object" ? model?.model : undefined;
    const chat = name?.startsWith("wandb-artifact:") ? this.#checkpointChat : this.#chat;
    // Loaded at the first call, as the other W&B-only namespaces: a page that only chats never carries it.
    return import("../lib/evaluations/run.js").then(({ runEvaluation }) =>
      runEvaluation({ http: this._http, chat }, params),
    );
  }

  /**
   * The results of evaluations by id: one entry per dataset row (the row, and each
   * evaluation's prediction and scores on it), and each evaluation's summary (per scorer: the
   * pass rate of booleans, the mean of numbers). Read with Weave's
   * `POST /v2/{entity}/{project}/eval_results/query`, or, on a server without it, grouped the
   * same way from the calls query.
   *
   * @example
   * ```ts
   * const { rows, summary } = await client.evaluations.results({
   *   project_id: "acme/agents",
   *   ids: ["0198c2a1-5f3e-7a10-9b2c-4d5e6f708192"],
   * });
   * for (const row of rows) console.log(row.raw_data_row, row.evaluations?.[0]?.trials?.[0]?.scores);
   * console.log(summary?.evaluations?.[0]?.scorer_stats);
   * ```
   */
  async results(params: EvaluationResultsParams, options?: RequestOptions): Promise<EvaluationResults> {
    const [{ evaluationResultsParamsSchema }, { readResults }] = await Promise.all([
      import("../wire/evaluations/request-schema.js"),
      import("../lib/evaluations/read.js"),
    ]);
    const { project_id, ids } = validateInput(evaluationResultsParamsSchema, params, "evaluations.results request");
    return readResults(this.#readDeps(), project_id, ids, options);
  }

  /**
   * Two evaluations side by side: per scorer both values and the difference (`candidate -
   * baseline`), per row which one won (more of its scores higher); `format()` prints it as a
   * table. Rows line up by content, so both must have run on the same rows.
   *
   * @example
   * ```ts
   * const comparison = await client.evaluations.compare({
   *   project_id: "acme/agents",
   *   baseline: "0198c2a1-5f3e-7a10-9b2c-4d5e6f708192",
   *   candidate: "0198c2b7-0a4d-7c21-8e3f-5a6b7c8d9e0f",
   * });
   * console.log(comparison.format());
   * ```
   */
  async compare(params: EvaluationCompareParams, options?: RequestOptions): Promise<EvaluationComparison> {
    const [{ evaluationCompareParamsSchema }, { readResults }, { EvaluationComparison }] = await Promise.all([
      import("../wire/evaluations/request-schema.js"),
      import("../lib/evaluations/read.js"),
      import("../lib/evaluations/compare.js"),
    ]);
    const { project_id, baseline, candidate } = validateInput(
      evaluationCompareParamsSchema,
      params,
      "evaluations.compare request",
    );
    const results = await readResults(this.#readDeps(), project_id, [baseline, candidate], options);
    return new EvaluationComparison(results, baseline, candidate);
  }

  #readDeps() {
    const calls = new Calls(this._http);
    return { http: this._http, queryCalls: calls.query.bind(calls) };
  }
}
