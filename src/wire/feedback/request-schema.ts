import * as z from "zod/mini";
import { type QueryExpression, queryExpressionSchema } from "../calls/query-expression.js";
import { projectIdSchema } from "../project-id.js";
import { type Fields, type SchemaOf, strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";

ensureZodDefaults();

const REF = /^weave:\/\/\//;
const ref = (name: string) =>
  z.string().check(z.regex(REF, { error: `${name} must be a weave:/// ref (weave:///<entity>/<project>/...)` }));
const optionalRef = (name: string) => z.nullish(ref(name));
const count = z.nullish(z.int().check(z.nonnegative()));
// Typed by the expression's named (recursive) type, so `query` reads `QueryExpression`.
const queryExpression = queryExpressionSchema as SchemaOf<QueryExpression>;

const ANNOTATION_PREFIX = "wandb.annotation";
const RUNNABLE_PREFIX = "wandb.runnable";

const createShape = {
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** What the feedback is about: a `weave:///` ref, for a call `weave:///<entity>/<project>/call/<id>`. */
  weave_ref: ref("weave_ref"),
  /** `wandb.reaction.1`, `wandb.note.1`, `wandb.annotation.<name>`, or your own type. */
  feedback_type: z.string().check(z.minLength(1, { error: "feedback_type must be a non-empty string" })),
  /** The feedback itself; its shape follows `feedback_type` (`{ emoji }`, `{ note }`, `{ value }`, any object). */
  payload: z.record(z.string(), z.unknown()),
  /** For `wandb.annotation.<name>`: the ref of the annotation spec object `<name>` (required there, refused elsewhere). */
  annotation_ref: optionalRef("annotation_ref"),
  /** For `wandb.runnable.<name>`: the scorer op or object. */
  runnable_ref: optionalRef("runnable_ref"),
  /** For runnable feedback on ops: the scorer's call. */
  call_ref: optionalRef("call_ref"),
  /** For runnable feedback: the monitor or action that triggered it. */
  trigger_ref: optionalRef("trigger_ref"),
  /** A display name for who left it. */
  creator: z.nullish(z.string()),
  /** The queue the feedback was left from. */
  queue_id: z.nullish(z.string()),
  /** An id of your own for the feedback row (default: the server makes one). */
  id: z.nullish(z.string()),
};

type CreateLike = {
  feedback_type: string;
  payload: Record<string, unknown>;
  annotation_ref?: string | null | undefined;
};

// The rules Weave's `validate_feedback_create_req` applies before storing anything, each a 400
// there: checked here so that nothing is sent.
function payloadRules(ctx: { value: CreateLike; issues: unknown[] }): void {
  const { feedback_type: type, payload, annotation_ref } = ctx.value;
  const issue = (path: string[], message: string) =>
    ctx.issues.push({ code: "custom", path, message, input: ctx.value });
  if (type.startsWith(ANNOTATION_PREFIX)) {
    if (!type.startsWith(`${ANNOTATION_PREFIX}.`) || type.length === ANNOTATION_PREFIX.length + 1)
      issue(["feedback_type"], `an annotation feedback_type is "${ANNOTATION_PREFIX}.<annotation spec name>"`);
    if (annotation_ref == null)
      issue(["annotation_ref"], "annotation feedback needs annotation_ref: the ref of its annotation spec object");
    else {
      const name = type.slice(ANNOTATION_PREFIX.length + 1);
      const refName = /\/object\/([^/:]+):/.exec(annotation_ref)?.[1];
      if (refName !== undefined && name !== "" && refName !== name)
        issue(["annotation_ref"], `annotation_ref must point to an object named ${name} (the feedback_type's name)`);
    }
    if (!("value" in payload)) issue(["payload", "value"], "annotation feedback carries its value as payload.value");
  } else if (annotation_ref != null) {
    issue(["annotation_ref"], `annotation_ref is only for ${ANNOTATION_PREFIX}.<name> feedback`);
  }
  if (type === "wandb.reaction.1" && typeof payload["emoji"] !== "string")
    issue(["payload", "emoji"], "a wandb.reaction.1 payload is { emoji: <one emoji> }");
  if (type === "wandb.note.1") {
    const note = payload["note"];
    if (typeof note !== "string" || note.length < 1 || note.length > 1024)
      issue(["payload", "note"], "a wandb.note.1 payload is { note: <1 to 1024 characters> }");
  }
  if (type.startsWith(RUNNABLE_PREFIX) && !("output" in payload))
    issue(["payload", "output"], "runnable feedback carries its result as payload.output");
}

const createParams = strictObject(createShape).check((ctx) => payloadRules(ctx as never));
/**
 * Body of `POST /feedback/create`: one piece of feedback on a call or an object. The payload's
 * shape follows `feedback_type`: `wandb.reaction.1` takes `{ emoji }` (one emoji),
 * `wandb.note.1` `{ note }`, `wandb.annotation.<name>` `{ value }` with the `annotation_ref` of
 * the annotation spec named `<name>`; any other type takes any object.
 */
export interface FeedbackCreateParams extends Fields<typeof createParams.shape> {}

const replaceParams = strictObject({
  ...createShape,
  /** The feedback replaced. */
  feedback_id: z.string().check(z.minLength(1)),
}).check((ctx) => payloadRules(ctx as never));
/**
 * Body of `POST /feedback/replace`: a new version of an existing piece of feedback.
 */
export interface FeedbackReplaceParams extends Fields<typeof replaceParams.shape> {}

const sortBy = strictObject({
  /** The field sorted on, such as `created_at`. */
  field: z.string().check(z.minLength(1)),
  /** `"asc"` or `"desc"`; Weave requires it. */
  direction: z.enum(["asc", "desc"], { error: 'direction must be "asc" or "desc" (Weave requires it)' }),
});
/**
 * One sort key of a feedback query.
 */
export interface FeedbackSortBy extends Fields<typeof sortBy.shape> {}
const sortBySchema: SchemaOf<FeedbackSortBy> = sortBy;

const queryParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** Only these fields of each row (dotted paths such as `payload.value`); default every field. */
  fields: z.nullish(z.array(z.string())),
  /** Which rows: a query expression (`q.where(...)`). */
  query: z.nullish(queryExpression),
  /** The order of the rows. */
  sort_by: z.nullish(z.array(sortBySchema)),
  /** Caps the total number of rows read. */
  limit: count,
  /** Where the first page starts. */
  offset: count,
});
/**
 * Body of `POST /feedback/query` (the paging members come from the list).
 */
export interface FeedbackQueryParams extends Fields<typeof queryParams.shape> {}

const PURGE_BY_ID = "Weave purges feedback only by id: the query must be id = <literal> or an $or of those";

function isIdEq(op: unknown): boolean {
  const eq = (op as { $eq?: unknown })?.$eq;
  if (!Array.isArray(eq) || eq.length !== 2) return false;
  const [a, b] = eq as [Record<string, unknown>, Record<string, unknown>];
  const field = (x: Record<string, unknown>) => x?.["$getField"] === "id";
  const literal = (x: Record<string, unknown>) => typeof x?.["$literal"] === "string";
  return (field(a) && literal(b)) || (literal(a) && field(b));
}

const purgeParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The feedback to delete: `id = <literal>` or an `$or` of such comparisons. */
  query: queryExpression,
}).check((ctx) => {
  const expr = (ctx.value.query as { $expr: unknown }).$expr;
  const or = (expr as { $or?: unknown }).$or;
  const ok =
    isIdEq(expr) ||
    (Array.isArray(or) && or.length > 0 && or.every(isIdEq) && Object.keys(expr as object).length === 1);
  if (!ok) ctx.issues.push({ code: "custom", path: ["query"], message: PURGE_BY_ID, input: ctx.value });
});
/**
 * Body of `POST /feedback/purge`. Weave deletes feedback only by id: the query must be
 * `id = <literal>` or an `$or` of such comparisons.
 */
export interface FeedbackPurgeParams extends Fields<typeof purgeParams.shape> {}

/**
 * Body of `POST /feedback/create`, with Weave's rules per `feedback_type`.
 */
export const feedbackCreateParamsSchema: SchemaOf<FeedbackCreateParams> = createParams;
/**
 * Body of `POST /feedback/replace`.
 */
export const feedbackReplaceParamsSchema: SchemaOf<FeedbackReplaceParams> = replaceParams;
/**
 * Body of `POST /feedback/query`.
 */
export const feedbackQueryParamsSchema: SchemaOf<FeedbackQueryParams> = queryParams;
/**
 * Body of `POST /feedback/purge`: by id only.
 */
export const feedbackPurgeParamsSchema: SchemaOf<FeedbackPurgeParams> = purgeParams;
