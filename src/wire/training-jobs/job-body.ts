import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { inputIssues } from "../../core/checks/input-checks.js";
import { RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import { CompactJSONWriter } from "../../core/json/compact-json-text.js";
import { type SealHooks, SerializedJSON, toJSONValue } from "../../core/json/json-value.js";
import { experimentalConfigKeyHint } from "./experimental-config.js";
import type { TrajectoryParams } from "./request-schema.js";
import { trainingJobCreateParamsSchema, trajectoryGroupSchema, trajectorySchema } from "./request-schema.js";
import { tokenEntryCopier } from "./token-entry-copy.js";
import { isTokenLogprob } from "./token-logprob-check.js";
import { TrajectoryChecks } from "./trajectory-checks.js";
import { isTrajectoryChoice } from "./trajectory-item.js";

// The job with each trajectory checked apart (trajectorySchema, as it is copied): the rest of
// the request, with every other rule of trainingJobCreateParamsSchema.
const jobAroundTrajectories = z.extend(trainingJobCreateParamsSchema as unknown as z.ZodMiniObject, {
  trajectory_groups: z.array(
    z.safeExtend(trajectoryGroupSchema as unknown as z.ZodMiniObject, { trajectories: z.array(z.unknown()) }),
  ),
});

const isTrajectoryPath = (p: readonly (string | number)[]) =>
  p[0] === "trajectory_groups" && typeof p[1] === "number" && p[2] === "trajectories" && typeof p[3] === "number";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `trajectorySchema` on a trajectory's copy, with the token lists that the plain loop accepts
 * set aside meanwhile: zod would only run the same loop over them (tokenLogprobList), but a
 * copy whose thousands of entries stay reachable through zod's work gets promoted out of the
 * young heap, and a large job then holds far more than its size in garbage. A list the loop
 * refuses stays, so zod reports its issue as before.
 */
function parseTrajectory(copy: unknown) {
  const aside: [Record<string, unknown>, string, unknown][] = [];
  const setAside = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      const logprobs = isObject(item) ? item["logprobs"] : undefined;
      if (!isObject(logprobs)) continue;
      for (const key of ["content", "refusal"]) {
        const list = logprobs[key];
        if (Array.isArray(list) && list.length > 0 && list.every((e) => isTokenLogprob(e, true))) {
          aside.push([logprobs, key, list]);
          logprobs[key] = [];
        }
      }
    }
  };
  if (isObject(copy)) {
    setAside(copy["messages_and_choices"]);
    const histories = copy["additional_histories"];
    if (Array.isArray(histories)) for (const h of histories) if (isObject(h)) setAside(h["messages_and_choices"]);
  }
  try {
    return safeParse(trajectorySchema, copy);
  } finally {
    for (const [logprobs, key, list] of aside) logprobs[key] = list;
  }
}

const hasChoice = (t: TrajectoryParams): boolean =>
  t.messages_and_choices.some(isTrajectoryChoice) ||
  (t.additional_histories ?? []).some((h) => h.messages_and_choices.some(isTrajectoryChoice));

/**
 * A trajectory without an assistant choice has no token to train on, yet the server takes it
 * (with its reward) and makes a checkpoint from nothing. Its usual cause is a rollout whose
 * chat calls were never recorded.
 */
function noChoiceIssue(path: readonly (string | number)[]): ValidationIssue {
  return {
    path: path.join("."),
    message: `group ${path[1]}, trajectory ${path[3]} has no assistant choice, so nothing to train on. Most likely its chat calls were not recorded: inside captureTrajectory, a client other than inferloop's (openai, the AI SDK) records only when made with \`fetch: capturingFetch()\`; a hand-built Trajectory needs \`record(completion)\` or \`sample()\` after each call`,
    code: "no_choice",
  };
}

/** The request body, validated, with each trajectory already written as JSON text. */
export interface TrainingJobBody {
  body: Record<string, unknown>;
  checks: TrajectoryChecks;
}

/**
 * Validates a training job and writes each trajectory as JSON text as soon as its copy is
 * checked, then drops the copy: a large job holds about its body's size in memory instead of a
 * copy of every token entry (docs/performance.md, "Training job creation"). What is
 * sent is still exactly what was validated (see `toJSONValue`), the same issues are reported
 * as by `validateRequestBody(trainingJobCreateParamsSchema, …)`, and nothing is sent when any
 * of them is found. Refusals are worded with `what` (the operation's request).
 */
export function trainingJobBody(params: unknown, what: string): TrainingJobBody {
  const issues: ValidationIssue[] = [];
  const checks = new TrajectoryChecks();
  const writer = new CompactJSONWriter();
  const hooks: SealHooks = {
    depth: 4,
    at: isTrajectoryPath,
    entries: tokenEntryCopier,
    seal(copy, path) {
      const result = parseTrajectory(copy);
      if (!result.success) {
        for (const i of inputIssues(result.error.issues))
          issues.push({ path: [...path, ...i.path].join("."), message: i.message, code: i.code });
        return null;
      }
      const trajectory = copy as TrajectoryParams;
      if (!hasChoice(trajectory)) issues.push(noChoiceIssue(path));
      checks.add(path[1] as number, path[3] as number, trajectory);
      return new SerializedJSON(writer.write(copy));
    },
  };
  const body = toJSONValue(params, what, hooks);
  const rest = safeParse(jobAroundTrajectories, body);
  if (!rest.success)
    for (const i of inputIssues(rest.error.issues, experimentalConfigKeyHint))
      issues.push({ path: i.path.join("."), message: i.message, code: i.code });
  if (issues.length > 0) throw new RequestValidationError(ordered(issues), what);
  // Validated: a list of groups, each with a list of trajectories.
  checks.groupSizes((body["trajectory_groups"] as { trajectories: unknown[] }[]).map((g) => g.trajectories.length));
  return { body, checks };
}

// In the order of the body's fields, as one check of the whole job lists them.
const FIELD_ORDER = ["model_id", "trajectory_groups"];
function ordered(issues: ValidationIssue[]): ValidationIssue[] {
  const rank = (i: ValidationIssue) => {
    const at = FIELD_ORDER.indexOf(i.path.split(".")[0]!);
    return at === -1 ? FIELD_ORDER.length : at;
  };
  return issues
    .map((issue, n) => ({ issue, n }))
    .sort((a, b) => rank(a.issue) - rank(b.issue) || a.n - b.n)
    .map((x) => x.issue);
}
