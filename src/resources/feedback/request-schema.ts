import * as z from "zod/mini";
import { queryExpressionSchema } from "../calls/query-expression.js";
import { projectIdSchema } from "../project-id.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type {
  FeedbackCreateParams,
  FeedbackPurgeParams,
  FeedbackQueryParams,
  FeedbackReplaceParams,
  FeedbackSortBy,
} from "./request-types.js";

export type * from "./request-types.js";

ensureZodDefaults();

const REF = /^weave:\/\/\//;
const ref = (name: string) =>
  z.string().check(z.regex(REF, { error: `${name} must be a weave:/// ref (weave:///<entity>/<project>/...)` }));
const optionalRef = (name: string) => z.nullish(ref(name));
const count = z.nullish(z.int().check(z.nonnegative()));

const ANNOTATION_PREFIX = "wandb.annotation";
const RUNNABLE_PREFIX = "wandb.runnable";

const createShape = {
  project_id: projectIdSchema,
  weave_ref: ref("weave_ref"),
  feedback_type: z.string().check(z.minLength(1, { error: "feedback_type must be a non-empty string" })),
  payload: z.record(z.string(), z.unknown()),
  annotation_ref: optionalRef("annotation_ref"),
  runnable_ref: optionalRef("runnable_ref"),
  call_ref: optionalRef("call_ref"),
  trigger_ref: optionalRef("trigger_ref"),
  creator: z.nullish(z.string()),
  queue_id: z.nullish(z.string()),
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

const createParams = z.strictObject(createShape).check((ctx) => payloadRules(ctx as never));
const replaceParams = z
  .strictObject({ ...createShape, feedback_id: z.string().check(z.minLength(1)) })
  .check((ctx) => payloadRules(ctx as never));
const sortBy = z.strictObject({
  field: z.string().check(z.minLength(1)),
  direction: z.enum(["asc", "desc"], { error: 'direction must be "asc" or "desc" (Weave requires it)' }),
});
const queryParams = z.strictObject({
  project_id: projectIdSchema,
  fields: z.nullish(z.array(z.string())),
  query: z.nullish(queryExpressionSchema),
  sort_by: z.nullish(z.array(sortBy)),
  limit: count,
  offset: count,
});

const PURGE_BY_ID = "Weave purges feedback only by id: the query must be id = <literal> or an $or of those";

function isIdEq(op: unknown): boolean {
  const eq = (op as { $eq?: unknown })?.$eq;
  if (!Array.isArray(eq) || eq.length !== 2) return false;
  const [a, b] = eq as [Record<string, unknown>, Record<string, unknown>];
  const field = (x: Record<string, unknown>) => x?.["$getField"] === "id";
  const literal = (x: Record<string, unknown>) => typeof x?.["$literal"] === "string";
  return (field(a) && literal(b)) || (literal(a) && field(b));
}

const purgeParams = z.strictObject({ project_id: projectIdSchema, query: queryExpressionSchema }).check((ctx) => {
  const expr = (ctx.value.query as { $expr: unknown }).$expr;
  const or = (expr as { $or?: unknown }).$or;
  const ok =
    isIdEq(expr) ||
    (Array.isArray(or) && or.length > 0 && or.every(isIdEq) && Object.keys(expr as object).length === 1);
  if (!ok) ctx.issues.push({ code: "custom", path: ["query"], message: PURGE_BY_ID, input: ctx.value });
});

/**
 * Body of `POST /feedback/create`, with Weave's rules per `feedback_type`.
 *
 * @example
 * ```ts
 * feedbackCreateParamsSchema.parse({ project_id: "acme/bot", weave_ref: "weave:///acme/bot/call/1", feedback_type: "wandb.reaction.1", payload: { emoji: "👍" } });
 * ```
 */
export const feedbackCreateParamsSchema: SchemaOf<FeedbackCreateParams> = createParams;
/**
 * Body of `POST /feedback/replace`.
 *
 * @example
 * ```ts
 * feedbackReplaceParamsSchema.parse({ project_id: "acme/bot", weave_ref: "weave:///acme/bot/call/1", feedback_type: "reward", payload: { value: 0 }, feedback_id: "f1" });
 * ```
 */
export const feedbackReplaceParamsSchema: SchemaOf<FeedbackReplaceParams> = replaceParams;
/**
 * Body of `POST /feedback/query`.
 *
 * @example
 * ```ts
 * feedbackQueryParamsSchema.parse({ project_id: "acme/bot", sort_by: [{ field: "created_at", direction: "desc" }] });
 * ```
 */
export const feedbackQueryParamsSchema: SchemaOf<FeedbackQueryParams> = queryParams;
/**
 * Body of `POST /feedback/purge`: by id only.
 *
 * @example
 * ```ts
 * feedbackPurgeParamsSchema.parse({ project_id: "acme/bot", query: { $expr: { $eq: [{ $getField: "id" }, { $literal: "f1" }] } } });
 * ```
 */
export const feedbackPurgeParamsSchema: SchemaOf<FeedbackPurgeParams> = purgeParams;

type _Agreement = Check<
  [
    Agrees<z.input<typeof createParams>, FeedbackCreateParams>,
    Agrees<z.input<typeof replaceParams>, FeedbackReplaceParams>,
    Agrees<z.input<typeof sortBy>, FeedbackSortBy>,
    Agrees<z.input<typeof queryParams>, FeedbackQueryParams>,
    Agrees<z.input<typeof purgeParams>, FeedbackPurgeParams>,
  ]
>;
