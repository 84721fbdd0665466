/**
 * Large training jobs: the body is checked trajectory by trajectory and sent in pieces (undici)
 * or joined (fetch). It must arrive byte for byte as `JSON.stringify` would write it, a retry
 * must send the same bytes even when a `toJSON` answers differently, and nothing is sent when
 * any part of the job is invalid, however deep and however late in the job.
 */
import { describe, expect, it } from "vitest";
import { type ClientOptions, RequestValidationError, type TrainingJobCreateParams } from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, MODEL_ID, useFakeService } from "./helpers.js";

const JOBS = "/v1/preview/training-jobs";

const fake = useFakeService({ seedCalls: false });

// Non-ASCII tokens (two- to four-byte UTF-8, a surrogate pair) make the byte length differ from
// the string length, so a wrong content-length or a piece cut inside a character would show.
// The groups cover each form a trajectory's text is held in until it is sent: ASCII and
// Latin-1 (kept as they are), a few characters past Latin-1 in mostly ASCII text (CJK, emoji,
// the U+FFFD of a token cut inside a UTF-8 sequence: sent as \u escapes), every token in
// Chinese (escaped too: a logprob entry is mostly ASCII), and, in the last group, replies of
// Chinese prose without token entries (kept as they are) or with one character in five in
// Chinese (kept as UTF-8 bytes).
const ASCII_WORDS = [" the", ' "q"', " end\n"];
const LATIN1_WORDS = [" the", " é", " ñ\u00ff"];
const MIXED_WORDS = [" the", " é", " 日本", " 🙂", ' "q"', " end"];
const CJK_WORDS = [" 这个", " 模型", " 答案", " 是"];
const CUT_WORDS = [" the", "\ufffd", " end"];
const GROUP_WORDS = [ASCII_WORDS, LATIN1_WORDS, MIXED_WORDS, CJK_WORDS, CUT_WORDS];
const PROSE = ["这个模型的答案是准备好的。".repeat(2000), "abcd答".repeat(6000)];

function trajectory(g: number, t: number, tokens: number) {
  const content = [];
  const ids = [];
  const words = GROUP_WORDS[g % GROUP_WORDS.length]!;
  const prose = g === 5 ? PROSE[t % 2]! : undefined;
  for (let i = 0; i < (prose === undefined ? tokens : 2); i++) {
    const token = words[(i + g + t) % words.length]!;
    content.push({ token, logprob: -((i * 31 + t) % 997) / 100, bytes: [...Buffer.from(token)], top_logprobs: [] });
    ids.push(100 + ((i * 7919 + g) % 150_000));
  }
  return {
    messages_and_choices: [
      { role: "user", content: `Problem ${g}` },
      {
        finish_reason: "length",
        index: 0,
        message: { role: "assistant" as const, content: prose ?? `reply ${t}` },
        logprobs: { content },
        token_ids: ids,
      },
    ],
    reward: (g + t) % 3,
  };
}

/** 6 groups × 4 trajectories × 1,500 tokens: a body of several MB, many 64 KiB pieces. */
function largeJob(groups = 6): TrainingJobCreateParams {
  return {
    model_id: MODEL_ID,
    trajectory_groups: Array.from({ length: groups }, (_, g) => ({
      trajectories: Array.from({ length: 4 }, (_, t) => trajectory(g, t, 1500)),
    })),
    experimental_config: { learning_rate: 1e-5 },
  };
}

describe("a large training job", () => {
  for (const transport of ["undici", "fetch"] as const) {
    const clientOf = (options: ClientOptions = {}) =>
      clientFor(fake.svc, transport === "fetch" ? { ...options, fetch: (url, init) => fetch(url, init) } : options);

    it(`arrives as the same JSON value, with its content-length, each text in its cheapest form (${transport})`, async () => {
      const job = largeJob();
      expect(Buffer.byteLength(JSON.stringify(job))).toBeGreaterThan(2 * 1024 * 1024);
      const created = await clientOf().trainingJobs.create(job);
      expect(fake.svc.requests).toHaveLength(1);
      const [req] = fake.svc.requests;
      const sent = JSON.parse(JSON.stringify(job)) as unknown;
      expect(JSON.parse(req!.body)).toEqual(sent);
      expect(req!.json).toEqual(sent);
      expect(fake.svc.trainingJobs.map((j) => j.request)).toEqual([sent]);
      // Sent with its length, not chunked: some proxies and servers refuse chunked bodies.
      expect(req!.headers["content-length"]).toBe(String(Buffer.byteLength(req!.body)));
      expect(req!.headers["transfer-encoding"]).toBeUndefined();
      // Rare characters past Latin-1 as escapes, Latin-1 and prose as they are.
      expect(req!.body).toContain('"token":" \\u65e5\\u672c"');
      expect(req!.body).toContain('"token":" \\ud83d\\ude42"');
      expect(req!.body).toContain('"token":"\\ufffd"');
      expect(req!.body).toContain('"token":" \\u8fd9\\u4e2a"');
      expect(req!.body).toContain('"token":" ñ\u00ff"');
      expect(req!.body).toContain(PROSE[0]);
      expect(req!.body).toContain(PROSE[1]);
      expect(fake.svc.trainingJobs.map((j) => j.id)).toEqual([created.id]);
    });

    it(`an ASCII and Latin-1 job arrives byte for byte as JSON.stringify writes it (${transport})`, async () => {
      const job = largeJob(2);
      const expected = JSON.stringify(job);
      await clientOf().trainingJobs.create(job);
      expect(fake.svc.requests[0]!.body).toBe(expected);
      expect(fake.svc.requests[0]!.headers["content-length"]).toBe(String(Buffer.byteLength(expected)));
    });

    it(`a retry with idempotencyKey sends the same bytes, texts past Latin-1 included (${transport})`, async () => {
      fake.svc.inject(faults.status(503, { path: JOBS, headers: { "retry-after-ms": "1" } }));
      const job = largeJob();
      const created = await clientOf({ maxRetries: 2 }).trainingJobs.create(job, { idempotencyKey: "big-0" });
      expect(fake.svc.requests).toHaveLength(2);
      expect(fake.svc.requests[1]!.body).toBe(fake.svc.requests[0]!.body);
      expect(fake.svc.requests[1]!.json).toEqual(JSON.parse(JSON.stringify(job)));
      expect(fake.svc.trainingJobs.map((j) => j.id)).toEqual([created.id]);
    });
  }

  it("a retry with idempotencyKey sends the same bytes, even when a toJSON changes its answer", async () => {
    let calls = 0;
    const base = trajectory(0, 0, 1500);
    // A trajectory object whose reward changes each time it is read: only the first answer,
    // the one that was validated, may be sent, on every attempt.
    const changing = { toJSON: () => ({ ...base, reward: ++calls }) };
    const job = largeJob();
    job.trajectory_groups[5]!.trajectories.push(changing as never);
    fake.svc.inject(faults.status(503, { path: JOBS, headers: { "retry-after-ms": "1" } }));
    const created = await clientFor(fake.svc, { maxRetries: 2 }).trainingJobs.create(job, { idempotencyKey: "big-1" });
    expect(fake.svc.requests).toHaveLength(2);
    expect(fake.svc.requests[1]!.body).toBe(fake.svc.requests[0]!.body);
    expect(calls).toBe(1);
    const sent = fake.svc.requests[1]!.json as { trajectory_groups: { trajectories: { reward: number }[] }[] };
    expect(sent.trajectory_groups[5]!.trajectories.at(-1)!.reward).toBe(1);
    expect(fake.svc.trainingJobs.map((j) => j.id)).toEqual([created.id]);
  });

  it("without a key, a refused-before-headers attempt is not sent again", async () => {
    fake.svc.inject(faults.reset({ path: JOBS }));
    const err = await caught(() => clientFor(fake.svc, { maxRetries: 3 }).trainingJobs.create(largeJob()));
    expect(err).toBeInstanceOf(Error);
    expect(fake.svc.requests).toHaveLength(1);
    expect(fake.svc.trainingJobs).toHaveLength(0);
  });

  it("an invalid token deep in a late trajectory: refused, nothing sent", async () => {
    const job = largeJob();
    const last = job.trajectory_groups[4]!.trajectories[3]!;
    const choice = last.messages_and_choices[1] as { logprobs: { content: { logprob: number }[] } };
    choice.logprobs.content[1499]!.logprob = Number.NaN;
    const err = await caught(() => clientFor(fake.svc).trainingJobs.create(job));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual([
      "trajectory_groups.4.trajectories.3.messages_and_choices.1.logprobs.content.1499.logprob",
    ]);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("issues of a trajectory and of the rest of the job are reported together, in body order", async () => {
    const job = largeJob() as unknown as Record<string, unknown> & TrainingJobCreateParams;
    job.model_id = "not-a-uuid";
    const bad = job.trajectory_groups[2]!.trajectories[1]! as unknown as Record<string, unknown>;
    bad.reward = "high";
    job.experimental_config = { ppo: "yes" as unknown as boolean };
    const err = await caught(() => clientFor(fake.svc).trainingJobs.create(job));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual([
      "model_id",
      "trajectory_groups.2.trajectories.1.reward",
      "experimental_config.ppo",
    ]);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("a trajectory that refers back to the job is refused as a cycle, nothing sent", async () => {
    const job = largeJob();
    (job.trajectory_groups[3]!.trajectories[0] as unknown as Record<string, unknown>).metadata = { job };
    const err = await caught(() => clientFor(fake.svc).trainingJobs.create(job));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]!.path).toBe("trajectory_groups.3.trajectories.0.metadata.job");
    expect(fake.svc.requests).toHaveLength(0);
  });
});
