import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  APIError,
  APIUserAbortError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  RateLimitError,
} from "../../src/index.js";
import { catchWarningsOfEachTest } from "../warnings.js";
import {
  BASE,
  chatParams,
  chatReply,
  errorResponse,
  MODEL_ID,
  makeClient,
  modelList,
  trajectoryGroups,
  useMsw,
} from "./msw-setup.js";

// The training jobs here are about requests, not their contents: the SDK's findings on them are expected.
catchWarningsOfEachTest([
  "INFERLOOP_UNIFORM_REWARDS",
  "INFERLOOP_MISSING_REWARD",
  "INFERLOOP_NO_TRAJECTORIES",
  "INFERLOOP_MISSING_LOGPROBS",
]);

const { server, seen } = useMsw();

/** `/v1/models` answers with `fail` for the first `failures` requests, then succeeds. */
function failModels(failures: number, fail: () => Response) {
  let n = 0;
  server.use(http.get(`${BASE}/v1/models`, () => (n++ < failures ? fail() : HttpResponse.json(modelList))));
}

function failTrainingJobs(fail: () => Response) {
  server.use(http.post(`${BASE}/v1/preview/training-jobs`, fail));
}

const job = { model_id: MODEL_ID, trajectory_groups: trajectoryGroups };

describe("retries by status", () => {
  for (const status of [408, 409, 429, 500, 503]) {
    it(`retries ${status} up to maxRetries, then throws`, async () => {
      failModels(Infinity, () => errorResponse(status));
      const err = await makeClient({ maxRetries: 3 })
        .models.list()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIError);
      expect((err as APIError).status).toBe(status);
      expect(seen).toHaveLength(4);
    });
  }

  it("succeeds once a retried request gets through", async () => {
    failModels(2, () => errorResponse(503));
    await expect(makeClient({ maxRetries: 2 }).models.list()).resolves.toEqual(modelList);
    expect(seen).toHaveLength(3);
  });

  it("retries twice by default", async () => {
    failModels(Infinity, () => errorResponse(500));
    await expect(makeClient().models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(3);
  });

  it("takes maxRetries from the request options over the client's", async () => {
    failModels(Infinity, () => errorResponse(500));
    await expect(makeClient({ maxRetries: 5 }).models.list({ maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(1);
  });

  it("backs off on its own when the server gives no retry hint", async () => {
    failModels(1, () => HttpResponse.json({ error: { message: "busy" } }, { status: 503 }));
    await expect(makeClient({ maxRetries: 1 }).models.list()).resolves.toEqual(modelList);
    expect(seen).toHaveLength(2);
  });

  for (const status of [400, 401, 404, 422]) {
    it(`does not retry ${status}`, async () => {
      failModels(Infinity, () => errorResponse(status));
      await expect(makeClient({ maxRetries: 3 }).models.list()).rejects.toBeInstanceOf(APIError);
      expect(seen).toHaveLength(1);
    });
  }

  it("retries chat completions (a safe operation) too", async () => {
    let n = 0;
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () => (n++ === 0 ? errorResponse(429) : HttpResponse.json(chatReply))),
    );
    const reply = await makeClient().chat.completions.create(chatParams);
    expect(reply.choices[0]!.message.content).toBe("hello");
    expect(seen).toHaveLength(2);
  });
});

describe("x-should-retry and Retry-After", () => {
  it("x-should-retry: false stops the retry of a 503", async () => {
    failModels(Infinity, () => errorResponse(503, undefined, { "x-should-retry": "false" }));
    await expect(makeClient({ maxRetries: 3 }).models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it("x-should-retry: true forces retries of a 400", async () => {
    failModels(Infinity, () => errorResponse(400, undefined, { "x-should-retry": "true" }));
    await expect(makeClient({ maxRetries: 2 }).models.list()).rejects.toBeInstanceOf(BadRequestError);
    expect(seen).toHaveLength(3);
  });

  it("honours retry-after-ms", async () => {
    failModels(1, () => HttpResponse.json({}, { status: 429, headers: { "retry-after-ms": "10" } }));
    await expect(makeClient().models.list()).resolves.toEqual(modelList);
    expect(seen).toHaveLength(2);
  });

  it("does not wait out a Retry-After above 60 s: the RateLimitError surfaces with retryAfter", async () => {
    failModels(Infinity, () =>
      HttpResponse.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "120" } }),
    );
    const err = await makeClient({ maxRetries: 3 })
      .models.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(120_000);
    expect(seen).toHaveLength(1);
  });

  it("reports retryAfter from retry-after-ms on a RateLimitError", async () => {
    failModels(Infinity, () => errorResponse(429));
    const err = await makeClient({ maxRetries: 0 })
      .models.list()
      .catch((e: unknown) => e);
    expect((err as RateLimitError).retryAfter).toBe(1);
  });
});

describe("no duplicate training jobs", () => {
  it("does not retry trainingJobs.create on a 503 without an idempotency key", async () => {
    failTrainingJobs(() => errorResponse(503));
    await expect(makeClient({ maxRetries: 3 }).trainingJobs.create(job)).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it("does not retry it on a 409 or 429 either without a key", async () => {
    failTrainingJobs(() => errorResponse(409));
    await expect(makeClient({ maxRetries: 3 }).trainingJobs.create(job)).rejects.toBeInstanceOf(ConflictError);
    expect(seen).toHaveLength(1);
  });

  it("retries it with an idempotency key, sending the same Idempotency-Key on every attempt", async () => {
    let n = 0;
    server.use(
      http.post(`${BASE}/v1/preview/training-jobs`, () =>
        n++ < 2 ? errorResponse(503) : HttpResponse.json({ id: "job-1" }),
      ),
    );
    const res = await makeClient({ maxRetries: 3 }).trainingJobs.create(job, { idempotencyKey: "idem-42" });
    expect(res).toEqual({ id: "job-1" });
    expect(seen).toHaveLength(3);
    expect(seen.map((r) => r.headers.get("idempotency-key"))).toEqual(["idem-42", "idem-42", "idem-42"]);
  });
});

describe("abort during a retry wait", () => {
  it("ends at once with APIUserAbortError, sends nothing more and leaves no timer", async () => {
    // Retry-After 30 s: the client would wait; the abort comes while it does.
    failModels(Infinity, () => HttpResponse.json({}, { status: 503, headers: { "retry-after": "30" } }));
    const ac = new AbortController();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    let waiting = false;
    const logger = {
      error() {},
      info() {},
      debug() {},
      // Written just before the wait starts; abort once the wait is under way.
      warn() {
        waiting = true;
        queueMicrotask(() => ac.abort());
      },
    };
    const err = await makeClient({ logger, logLevel: "warn" })
      .models.list({ signal: ac.signal })
      .catch((e: unknown) => e);
    expect(waiting).toBe(true);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(1);
    expect(timers()).toBe(before);
  });

  it("an already aborted signal sends nothing", async () => {
    failModels(0, () => errorResponse(500));
    await expect(makeClient().models.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(0);
  });
});
