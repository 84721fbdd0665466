import * as z from "zod/mini";
import type { SerializedJSON } from "../../core/json/json-value.js";
import { projectIdSchema } from "../project-id.js";
import { type Fields, type SchemaOf, strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type { StartedCallInsert } from "./types.js";

ensureZodDefaults();

const callId = (what: string) =>
  z.string().check(z.minLength(1, { error: `${what} must be an evaluation's id (the Evaluation.evaluate call's id)` }));

const resultsParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The evaluations: their ids (`run.id`, the `Evaluation.evaluate` calls' ids). */
  ids: z.array(callId("an id")).check(z.minLength(1, { error: "ids must name at least one evaluation" })),
});
/** What `client.evaluations.results` takes. */
export interface EvaluationResultsParams extends Fields<typeof resultsParams.shape> {}
export const evaluationResultsParamsSchema: SchemaOf<EvaluationResultsParams> = resultsParams;

const compareParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The evaluation compared against (the model before training): its id. */
  baseline: callId("baseline"),
  /** The evaluation compared (the model after training): its id. */
  candidate: callId("candidate"),
});
/** What `client.evaluations.compare` takes. */
export interface EvaluationCompareParams extends Fields<typeof compareParams.shape> {}
export const evaluationCompareParamsSchema: SchemaOf<EvaluationCompareParams> = compareParams;

/** Body of `POST /obj/create`. */
export interface ObjCreateBody {
  obj: { project_id: string; object_id: string; val: Record<string, unknown> };
}

/** Body of `POST /obj/read`. */
export interface ObjReadBody {
  project_id: string;
  object_id: string;
  digest: string;
}

/** Body of `POST /table/create`. */
export interface TableCreateBody {
  table: { project_id: string; rows: Record<string, unknown>[] };
}

/** Body of `POST /table/query`. */
export interface TableQueryBody {
  project_id: string;
  digest: string;
  limit?: number;
  offset?: number;
}

/** Body of `POST /call/start`. */
export interface CallStartBody {
  start: StartedCallInsert;
}

/**
 * Body of `POST /call/upsert_batch`: its items (`CallBatchItem`), each part already written as
 * JSON text (one or more items, comma-separated), sent as written.
 */
export interface CallUpsertBatchBody {
  batch: SerializedJSON[];
}

/** Body of `POST /v2/{entity}/{project}/eval_results/query` (Weave's `EvalResultsQueryBody`), as the SDK sends it. */
export interface EvalResultsQueryBody {
  evaluation_call_ids: string[];
  include_rows?: boolean;
  include_summary?: boolean;
  include_raw_data_rows?: boolean;
  require_intersection?: boolean;
  limit?: number | null;
  offset?: number;
}

/**
 * For bodies the SDK builds itself from values already checked: typed, sent as built (a zod
 * walk of every row of a 10,000-row evaluation would check nothing new).
 */
export function built<T>(): { schema: SchemaOf<T>; check: (params: unknown) => T } {
  return { schema: z.custom<T>() as SchemaOf<T>, check: (params) => params as T };
}
