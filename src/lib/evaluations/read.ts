/**
 * Reading evaluations back: `POST /v2/{entity}/{project}/eval_results/query`, Weave's reader for
 * any evaluation, or, on a server without that route (a 404), the same grouping made here from
 * the calls query.
 *
 * @module
 */
import { NotFoundError } from "../../core/errors/errors.js";
import { callEndpoint } from "../../core/pipeline/endpoint.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { CallsQueryParams } from "../../wire/calls/request-schema.js";
import type { CallRecord } from "../../wire/calls/types.js";
import { evalResultsQuery } from "../../wire/evaluations/endpoints.js";
import type { EvaluationResults } from "../../wire/evaluations/types.js";
import { type EvaluationCall, groupEvalResults, type RootMetadata, rootMetadata } from "./results.js";
import { rowDigestSource, weaveDigest } from "./weave-json.js";

/** What reading needs: the pipeline, and the calls query for servers without `eval_results`. */
export interface ResultsDeps {
  http: HttpClient;
  queryCalls: (params: CallsQueryParams, options?: RequestOptions) => AsyncIterable<CallRecord>;
}

// The calls query takes at most this many ids in one filter list.
const IDS_PER_QUERY = 1000;

async function collect(
  deps: ResultsDeps,
  projectId: string,
  filter: CallsQueryParams["filter"],
  options: RequestOptions | undefined,
): Promise<EvaluationCall[]> {
  const out: EvaluationCall[] = [];
  for await (const call of deps.queryCalls({ project_id: projectId, filter }, options))
    out.push(call as unknown as EvaluationCall);
  return out;
}

async function sha256(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return weaveDigest(new Uint8Array(bytes));
}

/** The results of evaluations grouped here from their calls (what `eval_results/query` returns). */
async function resultsFromCalls(
  deps: ResultsDeps,
  projectId: string,
  ids: readonly string[],
  options: RequestOptions | undefined,
): Promise<EvaluationResults> {
  const roots = await collect(deps, projectId, { call_ids: [...ids] }, options);
  const children = await collect(deps, projectId, { parent_ids: [...ids] }, options);
  const calls = [...children];
  for (let i = 0; i < children.length; i += IDS_PER_QUERY) {
    const parents = children.slice(i, i + IDS_PER_QUERY).map((c) => c.id);
    calls.push(...(await collect(deps, projectId, { parent_ids: parents }, options)));
  }
  const digests = new Map<string, string>();
  for (const call of children) {
    const source = rowDigestSource(call.inputs["example"] ?? null);
    digests.set(call.id, "digest" in source ? source.digest : await sha256(source.text));
  }
  const metadata = new Map<string, RootMetadata>(roots.map((r) => [r.id, rootMetadata(r)]));
  return groupEvalResults(ids, calls, (trial) => digests.get(trial.id)!, metadata, {
    include_summary: true,
    include_raw_data_rows: true,
  });
}

/**
 * Weave's readers add each score once more under its scorer call's op name (`exact.score` beside
 * `exact`, when the op is named `<scorer>.score` as Weave's TypeScript logger names it): that copy
 * is dropped, so each score is read once.
 */
function withoutScoreCopies(results: EvaluationResults): EvaluationResults {
  const copy = (key: string, has: (k: string) => boolean) => key.endsWith(".score") && has(key.slice(0, -6));
  for (const row of results.rows)
    for (const evaluation of row.evaluations ?? [])
      for (const trial of evaluation.trials ?? []) {
        const scores = trial.scores ?? {};
        for (const key of Object.keys(scores)) if (copy(key, (k) => k in scores)) delete scores[key];
        for (const key of Object.keys(trial.scorer_call_ids ?? {}))
          if (copy(key, (k) => k in scores)) delete trial.scorer_call_ids![key];
      }
  for (const evaluation of results.summary?.evaluations ?? []) {
    const stats = evaluation.scorer_stats ?? [];
    const keys = new Set(stats.map((s) => s.scorer_key));
    evaluation.scorer_stats = stats.filter((s) => !copy(s.scorer_key, (k) => keys.has(k)));
  }
  return results;
}

/** The results of the evaluations `ids` (rows with their raw data, and the summary). */
export async function readResults(
  deps: ResultsDeps,
  projectId: string,
  ids: readonly string[],
  options: RequestOptions | undefined,
): Promise<EvaluationResults> {
  const [entity, project] = projectId.split("/") as [string, string];
  try {
    const results = await callEndpoint(
      deps.http,
      evalResultsQuery,
      {
        pathArguments: { entity, project },
        params: { evaluation_call_ids: [...ids], include_summary: true, include_raw_data_rows: true },
      },
      options,
    );
    return withoutScoreCopies(results);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    return withoutScoreCopies(await resultsFromCalls(deps, projectId, ids, options));
  }
}
