/**
 * Shared pieces of the reliability suite: a client wired to a fake service with a capturing
 * logger, the six operations behind one `run()` each, a bound on every wait, and a guard that
 * fails the suite when a promise rejection goes unhandled.
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type ChatCompletionChunk, type ClientOptions, Inferloop, type RequestOptions } from "../../src/index.js";
import { type FakeService, SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import { MODEL_ID as JOB_MODEL_ID, MODEL } from "../integration/helpers.js";
import type { OperationId } from "./fault-table.js";

export { JOB_MODEL_ID, MODEL };
export const CALLS_LIMIT = 5;

export const PATHS: Record<OperationId, string> = {
  chat: "/v1/chat/completions",
  chatStream: "/v1/chat/completions",
  models: "/v1/models",
  calls: "/calls/stream_query",
  progress: `/annotation_queues/${SEED_QUEUE_ID}/items/${SEED_ITEM_IDS[0]}/progress`,
  jobs: "/v1/preview/training-jobs",
  jobsKey: "/v1/preview/training-jobs",
};

export const chatParams = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Say hello to the reliability suite" }],
  max_completion_tokens: 8,
};

// Two rollouts with different rewards: a group that teaches something, so the SDK has no
// finding to warn about (a fault test is not about the job's contents).
const rollout = (content: string, reward: number) => ({
  messages_and_choices: [
    { role: "user", content: "2+2?" },
    {
      finish_reason: "stop",
      index: 0,
      logprobs: { content: [{ token: content, logprob: -0.1, bytes: [content.charCodeAt(0)], top_logprobs: [] }] },
      message: { role: "assistant" as const, content },
    },
  ],
  reward,
});
export const trainingJob = {
  model_id: JOB_MODEL_ID,
  trajectory_groups: [{ trajectories: [rollout("4", 1), rollout("5", 0)] }],
};

/** A log line as the SDK wrote it. */
export interface LogLine {
  level: string;
  line: string;
  details: unknown[];
}

/** A client for `svc` (or any base URL) whose debug log is captured; `tries()` counts the
 * requests it started (one `→` line each). */
export function clientFor(target: FakeService | string, options: ClientOptions = {}) {
  const lines: LogLine[] = [];
  const capture =
    (level: string) =>
    (line: string, ...details: unknown[]) =>
      void lines.push({ level, line, details });
  const logger = { error: capture("error"), warn: capture("warn"), info: capture("info"), debug: capture("debug") };
  const svc = typeof target === "string" ? undefined : target;
  const client = new Inferloop({
    baseURL: typeof target === "string" ? target : target.url,
    apiKey: svc?.apiKey ?? "fake-api-key",
    username: svc?.username,
    password: svc?.password,
    logger,
    logLevel: "debug",
    ...options,
  });
  return {
    client,
    lines,
    tries: () => lines.filter((l) => l.line.startsWith("[inferloop] →")).length,
    resetLog: () => void (lines.length = 0),
  };
}

/** What an operation produced, reduced to what the assertions look at. */
export interface RunResult {
  /** chat: the content of choice 0; chatStream: the text of choice 0. */
  text?: string;
  chunks?: ChatCompletionChunk[];
  records?: Array<Record<string, unknown>>;
  value?: unknown;
}

/** Run one operation to the end (streams and pages read fully). What arrived before a failure
 * stays in `sink` (chunks, records). */
export async function runOperation(
  client: Inferloop,
  op: OperationId,
  options: RequestOptions = {},
  sink: RunResult = {},
  /** A slow consumer: ms to pause after each streamed chunk or record. */
  pauseMs = 0,
): Promise<RunResult> {
  const pause = () => (pauseMs > 0 ? new Promise((r) => setTimeout(r, pauseMs)) : undefined);
  switch (op) {
    case "chat": {
      const c = await client.chat.completions.create(chatParams, options);
      sink.value = c;
      sink.text = c.choices?.[0]?.message.content ?? undefined;
      return sink;
    }
    case "chatStream": {
      const stream = await client.chat.completions.create({ ...chatParams, stream: true }, options);
      sink.chunks = [];
      sink.text = "";
      for await (const chunk of stream) {
        sink.chunks.push(chunk);
        for (const c of chunk.choices ?? []) if (c.index === 0 && c.delta?.content) sink.text += c.delta.content;
        await pause();
      }
      return sink;
    }
    case "models":
      sink.value = await client.models.list(options);
      return sink;
    case "calls": {
      sink.records = [];
      for await (const r of client.calls.query({ project_id: SEED_PROJECT_ID, limit: CALLS_LIMIT }, options)) {
        sink.records.push(r as Record<string, unknown>);
        await pause();
      }
      return sink;
    }
    case "progress":
      sink.value = await client.annotationQueues.items.progress(
        SEED_QUEUE_ID,
        SEED_ITEM_IDS[0],
        { annotation_state: "in_progress", project_id: SEED_PROJECT_ID },
        options,
      );
      return sink;
    case "jobs":
      sink.value = await client.trainingJobs.create(trainingJob, options);
      return sink;
    case "jobsKey":
      sink.value = await client.trainingJobs.create(trainingJob, { idempotencyKey: "job-key-1", ...options });
      return sink;
  }
}

/** Rejects when `promise` has not settled within `ms`: no test can hang. */
export function within<T>(ms: number, promise: Promise<T>, what = "operation"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Settles `promise` into a value or the error it rejected with. */
export async function settle<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

/** A loopback port with nothing listening on it. */
export { closedPort as deadPort } from "../integration/helpers.js";

/**
 * Fails the file when a promise rejection goes unhandled or a MaxListenersExceededWarning is
 * emitted while its tests run. Call at the top level of a test file.
 */
export function guardProcess(): { rejections: unknown[]; warnings: Error[] } {
  const rejections: unknown[] = [];
  const warnings: Error[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  const onWarning = (w: Error) => {
    if (w.name === "MaxListenersExceededWarning") warnings.push(w);
  };
  beforeAll(() => {
    process.on("unhandledRejection", onRejection);
    process.on("warning", onWarning);
  });
  afterEach(() => {
    expect(rejections, "unhandled promise rejections").toEqual([]);
    expect(
      warnings.map((w) => w.message),
      "MaxListenersExceededWarning",
    ).toEqual([]);
  });
  afterAll(async () => {
    // A rejection left unhandled at the very end is reported on a later tick.
    await new Promise((r) => setTimeout(r, 20));
    process.off("unhandledRejection", onRejection);
    process.off("warning", onWarning);
    expect(rejections, "unhandled promise rejections").toEqual([]);
  });
  return { rejections, warnings };
}

/** A 10 MB (UTF-8 bytes) string of 1-, 2-, 3- and 4-byte characters, so multi-byte characters
 * straddle the network chunks. */
export const TEN_MB_TEXT = "ab é € 😀 ".repeat(Math.ceil((10 * 1024 * 1024) / Buffer.byteLength("ab é € 😀 ")));

/** What the Encoding standard's UTF-8 decoder makes of the bytes FF FE C3 28. */
export const REPLACED = "\uFFFD\uFFFD\uFFFD(";
