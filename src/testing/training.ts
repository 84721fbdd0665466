/**
 * `POST /v1/preview/training-jobs`: validates the body like the training API (FastAPI 422),
 * creates a job `{id}` and remembers it; an `Idempotency-Key` already seen returns the same job
 * without creating another (and 422 when the same key comes with a different body).
 */
import { detailError, jsonResponse, requireJsonBody } from "./responses.js";
import type { FakeRequest, ResponsePlan, TrainingJob } from "./types.js";
import { isoMicros, randomUuid } from "./util.js";
import {
  anything,
  bool,
  datetime,
  dict,
  int,
  list,
  nullable,
  num,
  obj,
  oneOf,
  str,
  uuid,
  validateBody,
} from "./validate.js";

const toolCheck = obj(
  {
    type: { check: str(), required: true },
    function: {
      check: obj(
        {
          name: { check: str(), required: true },
          description: { check: nullable(str()) },
          parameters: { check: nullable(dict()) },
          strict: { check: nullable(bool()) },
        },
        "allow",
      ),
      required: true,
    },
  },
  "allow",
);

const historyCheck = obj(
  { messages_and_choices: { check: list(anything()), required: true }, tools: { check: nullable(list(toolCheck)) } },
  "allow",
);

/**
 * The check of one trajectory (shared with the log route).
 *
 * @example
 * validateBody(trajectoryCheck, { messages_and_choices: [] });
 */
export const trajectoryCheck = obj(
  {
    messages_and_choices: { check: list(dict()), required: true },
    tools: { check: nullable(list(toolCheck)) },
    additional_histories: { check: nullable(list(historyCheck)) },
    reward: { check: num() },
    initial_policy_version: { check: nullable(int()) },
    final_policy_version: { check: nullable(int()) },
    metrics: { check: nullable(dict(oneOf(num(), bool()))) },
    metadata: { check: nullable(dict(oneOf(nullable(str()), num(), bool()))) },
    logs: { check: nullable(list(str())) },
    start_time: { check: nullable(datetime()) },
  },
  "allow",
);

const numberOrNull = { check: nullable(num()) };
const boolOrNull = { check: nullable(bool()) };

const experimentalConfigCheck = obj(
  {
    advantage_balance: numberOrNull,
    epsilon: numberOrNull,
    epsilon_high: numberOrNull,
    variant_k2_tau: numberOrNull,
    kimi_k2_tau: numberOrNull,
    learning_rate: numberOrNull,
    max_negative_advantage_importance_sampling_weight: numberOrNull,
    mask_prob_ratio: boolOrNull,
    ppo: boolOrNull,
    precalculate_logprobs: boolOrNull,
    scale_rewards: boolOrNull,
  },
  "forbid",
);

const createJobCheck = obj(
  {
    model_id: { check: uuid(), required: true },
    trajectory_groups: {
      check: list(obj({ trajectories: { check: list(trajectoryCheck), required: true } }, "allow")),
      required: true,
    },
    experimental_config: { check: nullable(experimentalConfigCheck) },
  },
  "forbid",
);

// Called after validation, so every group has a `trajectories` list of objects.
function rewardsOf(body: Record<string, unknown>): (number | null)[][] {
  const groups = body["trajectory_groups"] as Array<{ trajectories: Array<{ reward?: unknown }> }>;
  return groups.map((g) => g.trajectories.map((t) => (typeof t.reward === "number" ? t.reward : null)));
}

/**
 * Training jobs created so far, with the idempotency keys already used.
 *
 * @example
 * const jobs = new TrainingJobStore();
 * jobs.list.length; // 0
 */
export class TrainingJobStore {
  readonly list: TrainingJob[] = [];
  private readonly byKey = new Map<string, { job: TrainingJob; body: string }>();

  /**
   * Forgets every job and key.
   *
   * @example
   * jobs.clear();
   */
  clear(): void {
    this.list.length = 0;
    this.byKey.clear();
  }

  /**
   * Handles the create route (auth already checked).
   *
   * @example
   * return jobs.handleCreate(req);
   */
  handleCreate(req: FakeRequest, onCreated?: (job: TrainingJob) => void): ResponsePlan {
    const parsed = requireJsonBody(req.body, req.json);
    if (!parsed.ok) return parsed.error;
    const issues = validateBody(createJobCheck, parsed.value);
    if (issues.length > 0) return detailError(issues);
    const body = parsed.value as Record<string, unknown> & { model_id: string };
    const key = req.headers["idempotency-key"];
    const canonical = JSON.stringify(body);
    if (key !== undefined && key !== "") {
      const previous = this.byKey.get(key);
      if (previous !== undefined) {
        if (previous.body !== canonical) {
          return detailError([
            {
              loc: ["header", "idempotency-key"],
              msg: "Idempotency-Key was already used with a different request body",
              type: "idempotency_key_reused",
            },
          ]);
        }
        return jsonResponse(200, { id: previous.job.id }, { "idempotent-replayed": "true" });
      }
    }
    const job: TrainingJob = {
      id: randomUuid(),
      model_id: body.model_id,
      idempotency_key: key === undefined || key === "" ? null : key,
      request: body,
      rewards: rewardsOf(body),
      created_at: isoMicros(Date.now()),
    };
    this.list.push(job);
    onCreated?.(job);
    if (job.idempotency_key !== null) this.byKey.set(job.idempotency_key, { job, body: canonical });
    return jsonResponse(200, { id: job.id });
  }
}
