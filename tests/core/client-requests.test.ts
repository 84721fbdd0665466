import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { InferloopError, type LogLevel, MissingCredentialsError } from "../../src/index.js";
import { catchWarningsOfEachTest } from "../warnings.js";
import {
  BASE,
  chatParams,
  chatReply,
  KEY,
  MODEL_ID,
  makeClient,
  modelList,
  PASSWORD,
  TRACE,
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

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`, "utf8").toString("base64")}`;

/** Answers every operation of the service on `base`. */
function serve(base = BASE, trace = base) {
  server.use(
    http.post(`${base}/v1/chat/completions`, () => HttpResponse.json(chatReply)),
    http.get(`${base}/v1/models`, () => HttpResponse.json(modelList)),
    http.post(`${base}/v1/preview/training-jobs`, () => HttpResponse.json({ id: "job-1" })),
    http.post(
      `${trace}/calls/stream_query`,
      () => new HttpResponse('{"id":"c1"}\n', { headers: { "content-type": "application/jsonl" } }),
    ),
    http.post(`${trace}/annotation_queues/:queue/items/:item/progress`, () =>
      HttpResponse.json({ item: { id: "i1" } }),
    ),
  );
}

const progress = { annotation_state: "completed" as const, project_id: "acme/bot" };

describe("auth per operation", () => {
  it("sends Bearer <apiKey> on chat, models and training jobs", async () => {
    serve();
    const client = makeClient();
    await client.chat.completions.create(chatParams);
    await client.models.list();
    await client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: trajectoryGroups });
    expect(seen.map((r) => r.url.pathname)).toEqual([
      "/v1/chat/completions",
      "/v1/models",
      "/v1/preview/training-jobs",
    ]);
    for (const r of seen) expect(r.headers.get("authorization")).toBe(`Bearer ${KEY}`);
  });

  it("sends Basic base64(username:password) on calls and annotation queues", async () => {
    serve();
    const client = makeClient({ username: "alice", password: PASSWORD });
    await client.calls.query({ project_id: "acme/bot" }).toArray();
    await client.annotationQueues.items.progress("q1", "i1", progress);
    expect(seen.map((r) => r.url.pathname)).toEqual(["/calls/stream_query", "/annotation_queues/q1/items/i1/progress"]);
    for (const r of seen) expect(r.headers.get("authorization")).toBe(basic("alice", PASSWORD));
  });

  it("defaults the username to 'api' and the password to the API key", async () => {
    serve();
    await makeClient().annotationQueues.items.progress("q1", "i1", progress);
    expect(seen[0]!.headers.get("authorization")).toBe(basic("api", KEY));
  });

  it("encodes a non-ASCII username and password as UTF-8", async () => {
    serve();
    await makeClient({ username: "jürgen", password: "pässwörd-🔑" }).annotationQueues.items.progress(
      "q1",
      "i1",
      progress,
    );
    expect(seen[0]!.headers.get("authorization")).toBe(basic("jürgen", "pässwörd-🔑"));
  });

  it("fails a bearer operation without an API key, naming apiKey and INFERLOOP_API_KEY, and sends nothing", async () => {
    serve();
    const client = makeClient({ apiKey: undefined, password: PASSWORD });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingCredentialsError);
    expect(err).toBeInstanceOf(InferloopError);
    expect((err as Error).message).toContain("apiKey");
    expect((err as Error).message).toContain("INFERLOOP_API_KEY");
    await expect(client.chat.completions.create(chatParams)).rejects.toBeInstanceOf(MissingCredentialsError);
    expect(seen).toHaveLength(0);
    // Basic operations still work with a password alone.
    await client.annotationQueues.items.progress("q1", "i1", progress);
    expect(seen).toHaveLength(1);
  });

  it("fails a basic operation without any password, naming the options and env vars, and sends nothing", async () => {
    serve();
    const err = await makeClient({ apiKey: undefined })
      .annotationQueues.items.progress("q1", "i1", progress)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingCredentialsError);
    expect((err as Error).message).toContain("password");
    expect((err as Error).message).toContain("INFERLOOP_PASSWORD");
    expect(seen).toHaveLength(0);
  });
});

describe("environment defaults", () => {
  it("reads INFERLOOP_API_KEY, INFERLOOP_USERNAME, INFERLOOP_PASSWORD and INFERLOOP_BASE_URL", async () => {
    process.env.INFERLOOP_BASE_URL = BASE;
    process.env.INFERLOOP_API_KEY = "sk-from-env-123456";
    process.env.INFERLOOP_USERNAME = "env-user";
    process.env.INFERLOOP_PASSWORD = "env-password-123";
    serve();
    const { Inferloop } = await import("../../src/index.js");
    const client = new Inferloop({ fetch: (url, init) => fetch(url, init) });
    expect(client.baseURL).toBe(BASE);
    await client.models.list();
    await client.annotationQueues.items.progress("q1", "i1", progress);
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer sk-from-env-123456");
    expect(seen[1]!.headers.get("authorization")).toBe(basic("env-user", "env-password-123"));
  });

  it("uses the env API key as the Basic password when INFERLOOP_PASSWORD is unset", async () => {
    process.env.INFERLOOP_API_KEY = "sk-from-env-123456";
    serve();
    const client = makeClient({ apiKey: undefined });
    await client.annotationQueues.items.progress("q1", "i1", progress);
    expect(seen[0]!.headers.get("authorization")).toBe(basic("api", "sk-from-env-123456"));
  });

  it("lets options win over the environment", async () => {
    process.env.INFERLOOP_API_KEY = "sk-from-env-123456";
    process.env.INFERLOOP_BASE_URL = "https://other.inferloop.test";
    serve();
    await makeClient().models.list();
    expect(seen[0]!.url.origin).toBe(BASE);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${KEY}`);
  });

  it("reads INFERLOOP_LOG as the log level; the option wins", () => {
    process.env.INFERLOOP_LOG = "debug";
    expect(makeClient().logLevel).toBe("debug");
    expect(makeClient({ logLevel: "warn" }).logLevel).toBe("warn");
  });

  it("refuses a level that does not exist the same way from INFERLOOP_LOG and from logLevel", () => {
    const levels = "use one of off, error, warn, info, debug.";
    process.env.INFERLOOP_LOG = "verbose";
    expect(() => makeClient()).toThrow(
      new InferloopError(`INFERLOOP_LOG is "verbose", which is not a log level: ${levels}`),
    );
    // The option wins over the variable, so a valid option makes a bad variable irrelevant.
    expect(makeClient({ logLevel: "info" }).logLevel).toBe("info");
    delete process.env.INFERLOOP_LOG;
    expect(() => makeClient({ logLevel: "verbose" as LogLevel })).toThrow(
      new InferloopError(`\`logLevel\` is "verbose", which is not a log level: ${levels}`),
    );
  });

  it("without any base URL, each service goes to W&B's host (tests/core/service-bases.test.ts)", () => {
    const client = makeClient({ baseURL: undefined });
    expect(client.baseURL).toBe("https://api.inference.wandb.ai");
    expect(client.traceBaseURL).toBe("https://trace.wandb.ai");
  });
});

describe("base URLs", () => {
  it("routes calls and annotation queues to traceBaseURL, the rest to baseURL", async () => {
    serve(BASE, TRACE);
    const client = makeClient({ traceBaseURL: TRACE });
    await client.models.list();
    await client.calls.query({ project_id: "acme/bot" }).toArray();
    await client.annotationQueues.items.progress("q1", "i1", progress);
    expect(seen.map((r) => r.url.origin)).toEqual([BASE, TRACE, TRACE]);
  });

  it("keeps a path prefix of the base URL (with or without a trailing slash)", async () => {
    serve(`${BASE}/proxy/inferloop`);
    await makeClient({ baseURL: `${BASE}/proxy/inferloop/` }).models.list();
    await makeClient({ baseURL: `${BASE}/proxy/inferloop` }).chat.completions.create(chatParams);
    expect(seen.map((r) => r.url.pathname)).toEqual([
      "/proxy/inferloop/v1/models",
      "/proxy/inferloop/v1/chat/completions",
    ]);
  });

  it("percent-encodes path ids", async () => {
    serve();
    await makeClient().annotationQueues.items.progress("q/1", "i 1", progress);
    expect(seen[0]!.url.pathname).toBe("/annotation_queues/q%2F1/items/i%201/progress");
  });

  it("refuses a base URL that is not an http(s) URL, naming the option", () => {
    expect(() => makeClient({ baseURL: "not a url" })).toThrow(/baseURL/);
    expect(() => makeClient({ traceBaseURL: "ftp://x" })).toThrow(/traceBaseURL/);
  });
});

describe("headers", () => {
  it("sends defaultHeaders on every request and per-request headers on one", async () => {
    serve();
    const client = makeClient({ defaultHeaders: { "X-Team": "ml", "X-Env": "test" } });
    await client.models.list({ headers: { "X-Env": "staging", "X-Once": "1" } });
    await client.models.list();
    expect(seen[0]!.headers.get("x-team")).toBe("ml");
    expect(seen[0]!.headers.get("x-env")).toBe("staging");
    expect(seen[0]!.headers.get("x-once")).toBe("1");
    expect(seen[1]!.headers.get("x-env")).toBe("test");
    expect(seen[1]!.headers.has("x-once")).toBe(false);
  });

  it("removes a default header given as null in the request's headers, whatever its case", async () => {
    serve();
    const client = makeClient({ defaultHeaders: { "X-Team": "ml" } });
    await client.models.list({ headers: { "x-team": null } });
    expect(seen[0]!.headers.has("x-team")).toBe(false);
  });

  it("lets a null default header remove a header the SDK sets", async () => {
    serve();
    await makeClient({ defaultHeaders: { Accept: null } }).models.list();
    expect(seen[0]!.headers.get("accept")).not.toBe("application/json");
  });

  it("sends JSON content type and accept on a POST", async () => {
    serve();
    await makeClient().chat.completions.create(chatParams);
    expect(seen[0]!.headers.get("content-type")).toBe("application/json");
    expect(seen[0]!.headers.get("accept")).toBe("application/json");
  });

  it("sends Client-Project on models.list from `project`, and the per-call project overrides it", async () => {
    serve();
    const client = makeClient({ project: "acme/bot" });
    await client.models.list();
    await client.models.list({ project: "acme/eval" });
    expect(seen[0]!.headers.get("client-project")).toBe("acme/bot");
    expect(seen[1]!.headers.get("client-project")).toBe("acme/eval");
    // W&B Inference reads OpenAI-Project: the same value goes out under both names.
    expect(seen[0]!.headers.get("openai-project")).toBe("acme/bot");
    expect(seen[1]!.headers.get("openai-project")).toBe("acme/eval");
  });

  it("sends no Client-Project without a project", async () => {
    serve();
    await makeClient().models.list();
    expect(seen[0]!.headers.has("client-project")).toBe(false);
    expect(seen[0]!.headers.has("openai-project")).toBe(false);
  });

  it("sends idempotencyKey as Idempotency-Key", async () => {
    serve();
    await makeClient().trainingJobs.create(
      { model_id: MODEL_ID, trajectory_groups: trajectoryGroups },
      { idempotencyKey: "idem-1" },
    );
    expect(seen[0]!.headers.get("idempotency-key")).toBe("idem-1");
  });
});

describe("withOptions", () => {
  it("changes the given options and keeps the others (key, base URL, headers, project)", async () => {
    serve();
    const client = makeClient({
      defaultHeaders: { "X-Team": "ml" },
      project: "acme/bot",
      maxRetries: 4,
      timeout: 1234,
    });
    const next = client.withOptions({ timeout: 5000 });
    expect(next.timeout).toBe(5000);
    expect(next.maxRetries).toBe(4);
    expect(next.baseURL).toBe(BASE);
    expect(client.timeout).toBe(1234);
    await next.models.list();
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(seen[0]!.headers.get("x-team")).toBe("ml");
    expect(seen[0]!.headers.get("client-project")).toBe("acme/bot");
  });

  it("switches the base URL when asked", async () => {
    serve("https://second.inferloop.test");
    await makeClient().withOptions({ baseURL: "https://second.inferloop.test" }).models.list();
    expect(seen[0]!.url.origin).toBe("https://second.inferloop.test");
  });
});
