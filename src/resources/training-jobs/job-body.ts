// The body of a training-job create, checked without walking every token through zod. A job
// of 512 trajectories with 4,000 logprobs each holds two million token entries; zod checks
// them several times slower than JSON.stringify writes them and copies each one. Here the
// token entries are checked by a plain loop, and zod checks everything else on a view of the
// body whose token lists are empty: a list of valid entries and an empty list pass or fail
// the schema alike. When the loop finds a bad entry, zod checks the whole body, so the error
// is exactly the one the schema gives.
import { validateInput } from "../../core/validate.js";
import { trainingJobCreateParamsSchema, type TrainingJobCreateParams } from "./request-schema.js";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function isByteList(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isSafeInteger(v[i])) return false;
  return true;
}

/** Same rules as `tokenLogprobSchema` (top-level entry when `withTop`). */
function isTokenLogprob(e: unknown, withTop: boolean): boolean {
  if (!isObject(e) || typeof e["token"] !== "string" || !Number.isFinite(e["logprob"]) || !isByteList(e["bytes"]))
    return false;
  if (!withTop) return true;
  const top = e["top_logprobs"];
  if (top === undefined) return true;
  if (!Array.isArray(top)) return false;
  for (let i = 0; i < top.length; i++) if (!isTokenLogprob(top[i], false)) return false;
  return true;
}

interface Split {
  /** What is sent: the input with `Trajectory` objects turned into their wire shape. */
  body: unknown;
  /** What zod checks: `body` with every token list of a choice emptied. */
  view: unknown;
  /** Whether every token entry passed the loop. */
  tokensOk: boolean;
}

function splitItems(items: unknown, state: { tokensOk: boolean }): unknown {
  if (!Array.isArray(items)) return items;
  let view: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item) || !isObject(item["logprobs"])) continue;
    const logprobs = item["logprobs"];
    const content = logprobs["content"];
    if (!Array.isArray(content) || content.length === 0) continue;
    if (state.tokensOk) {
      for (let k = 0; k < content.length; k++) {
        if (!isTokenLogprob(content[k], true)) {
          state.tokensOk = false;
          break;
        }
      }
    }
    view ??= items.slice();
    view[i] = { ...item, logprobs: { ...logprobs, content: [] } };
  }
  return view ?? items;
}

function splitTrajectory(input: unknown, state: { tokensOk: boolean }): { body: unknown; view: unknown } {
  // `Trajectory` objects (and anything else with a toJSON, as JSON.stringify would) go as
  // their wire shape. Not `instanceof`: that would put the class in every client bundle.
  const body = isObject(input) && typeof input["toJSON"] === "function" ? (input["toJSON"] as () => unknown)() : input;
  if (!isObject(body)) return { body, view: body };
  const view: Obj = { ...body, messages_and_choices: splitItems(body["messages_and_choices"], state) };
  const histories = body["additional_histories"];
  if (Array.isArray(histories)) {
    view["additional_histories"] = histories.map((h: unknown) =>
      isObject(h) ? { ...h, messages_and_choices: splitItems(h["messages_and_choices"], state) } : h,
    );
  }
  return { body, view };
}

function split(params: unknown): Split {
  const state = { tokensOk: true };
  if (!isObject(params) || !Array.isArray(params["trajectory_groups"]))
    return { body: params, view: params, tokensOk: true };
  const bodyGroups: unknown[] = [];
  const viewGroups: unknown[] = [];
  for (const group of params["trajectory_groups"] as unknown[]) {
    if (!isObject(group) || !Array.isArray(group["trajectories"])) {
      bodyGroups.push(group);
      viewGroups.push(group);
      continue;
    }
    const bodyTrajectories: unknown[] = [];
    const viewTrajectories: unknown[] = [];
    for (const t of group["trajectories"] as unknown[]) {
      const s = splitTrajectory(t, state);
      bodyTrajectories.push(s.body);
      viewTrajectories.push(s.view);
    }
    bodyGroups.push({ ...group, trajectories: bodyTrajectories });
    viewGroups.push({ ...group, trajectories: viewTrajectories });
  }
  return {
    body: { ...params, trajectory_groups: bodyGroups },
    view: { ...params, trajectory_groups: viewGroups },
    tokensOk: state.tokensOk,
  };
}

/**
 * The body to send for `params`, with `Trajectory` objects in their wire shape; throws
 * `RequestValidationError` exactly where `trainingJobCreateParamsSchema` would. Token lists
 * are shared with the input, never copied.
 */
export function trainingJobBody(params: unknown): TrainingJobCreateParams {
  const { body, view, tokensOk } = split(params);
  validateInput(trainingJobCreateParamsSchema, tokensOk ? view : body, "training job");
  return body as TrainingJobCreateParams;
}
