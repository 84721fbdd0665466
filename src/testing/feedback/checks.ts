/**
 * Weave's checks of a feedback request: the body's members (its request models forbid unknown
 * keys, a 422) and the rules its `validate_feedback_create_req` and `process_feedback_payload`
 * apply, each a 400 `{reason}`: `wandb.reaction.1` takes `{emoji}`, `wandb.note.1` `{note}` of
 * 1-1024 characters, `wandb.annotation.<name>` needs an `annotation_ref` to an object named
 * `<name>` in the same project and a `payload.value` (the fake has no object store, so any such
 * ref resolves), `annotation_ref` on other types is refused, `wandb.runnable.<name>` needs
 * `runnable_ref` and `payload.output`.
 */
import { anything, dict, int, list, literal, nullable, obj, str } from "../validate.js";

const ANNOTATION = "wandb.annotation";
const RUNNABLE = "wandb.runnable";
const OBJECT_REF = /^weave:\/\/\/([^/]+\/[^/]+)\/object\/([^/:]+):([^/]+)$/;

/** The rules of Weave's feedback creation: the reason of a refusal (a 400), or `undefined`. */
export function checkCreate(body: Record<string, unknown>): string | undefined {
  const type = body["feedback_type"] as string;
  const payload = body["payload"] as Record<string, unknown>;
  const projectId = body["project_id"] as string;
  const weaveRef = body["weave_ref"] as string;
  if (!weaveRef.startsWith("weave:///")) return `Invalid weave_ref: ${weaveRef}`;
  if (type === "wandb.reaction.1") {
    const emoji = payload["emoji"];
    if (typeof emoji !== "string") return "Invalid payload for feedback_type wandb.reaction.1: emoji Field required";
    if ([...emoji.replace(/\uFE0F/g, "")].length !== 1 || !/\p{Extended_Pictographic}/u.test(emoji))
      return "Value of emoji key in payload must be exactly one emoji";
  }
  if (type === "wandb.note.1") {
    const note = payload["note"];
    if (typeof note !== "string" || note.length < 1 || note.length > 1024)
      return "Invalid payload for feedback_type wandb.note.1: note must be a string of 1 to 1024 characters";
  }
  const annotationRef = body["annotation_ref"];
  if (type.startsWith(ANNOTATION)) {
    if (!type.startsWith(`${ANNOTATION}.`)) return `Invalid annotation feedback type: ${type}`;
    if (typeof annotationRef !== "string" || annotationRef === "")
      return "annotation_ref is required for annotation feedback";
    const m = OBJECT_REF.exec(annotationRef);
    if (m === null) return `Invalid ref: ${annotationRef}`;
    if (m[2] !== type.slice(ANNOTATION.length + 1))
      return `annotation_ref must point to an object with name ${type.slice(ANNOTATION.length + 1)}`;
    if (!("value" in payload)) return `Invalid payload for feedback_type ${type}: value Field required`;
    if (m[1] !== projectId) return `Annotation ref ${annotationRef} does not match project id ${projectId}`;
  } else if (typeof annotationRef === "string" && annotationRef !== "") {
    return "annotation_ref is not allowed for non-annotation feedback";
  } else if (type.startsWith(RUNNABLE)) {
    if (!type.startsWith(`${RUNNABLE}.`)) return `Invalid runnable feedback type: ${type}`;
    if (typeof body["runnable_ref"] !== "string") return "runnable_ref is required for runnable feedback";
    if (!("output" in payload)) return `Invalid payload for feedback_type ${type}: output Field required`;
  } else if (typeof body["runnable_ref"] === "string") {
    return "runnable_ref is not allowed for non-runnable feedback";
  } else if (typeof body["call_ref"] === "string") {
    return "call_ref is not allowed for non-runnable feedback";
  } else if (typeof body["trigger_ref"] === "string") {
    return "trigger_ref is not allowed for non-runnable feedback";
  }
  return undefined;
}

const optionalStr = { check: nullable(str()) };
const createFields = {
  project_id: { check: str(), required: true },
  weave_ref: { check: str(), required: true },
  feedback_type: { check: str(), required: true },
  payload: { check: dict(anything()), required: true },
  annotation_ref: optionalStr,
  runnable_ref: optionalStr,
  call_ref: optionalStr,
  trigger_ref: optionalStr,
  creator: optionalStr,
  queue_id: optionalStr,
  id: optionalStr,
  wb_user_id: optionalStr,
};
// Weave's feedback request models forbid unknown keys.
export const createCheck = obj(createFields, "forbid");
export const replaceCheck = obj({ ...createFields, feedback_id: { check: str(), required: true } }, "forbid");
const sortCheck = obj(
  { field: { check: str(), required: true }, direction: { check: literal(["asc", "desc"]), required: true } },
  "forbid",
);
export const queryCheck = obj(
  {
    project_id: { check: str(), required: true },
    fields: { check: nullable(list(str())) },
    query: { check: anything() },
    sort_by: { check: nullable(list(sortCheck)) },
    limit: { check: nullable(int()) },
    offset: { check: nullable(int()) },
  },
  "forbid",
);
export const purgeCheck = obj(
  { project_id: { check: str(), required: true }, query: { check: anything(), required: true } },
  "forbid",
);
