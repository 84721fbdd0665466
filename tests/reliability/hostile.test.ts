/**
 * Hostile servers and hostile inputs: one test per row of `hostile-table.ts`, run with the
 * default (undici) transport and with `fetch` where a request is involved. The same rows are
 * rendered into `docs/reliability.md`.
 */
import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseErrorBody } from "../../src/core/errors/error-body.js";
import {
  type APIError,
  type ClientOptions,
  Inferloop,
  InferloopError,
  InternalServerError,
  RateLimitError,
  RequestValidationError,
  ResponseParseError,
  UnprocessableEntityError,
  zodResponseFormat,
} from "../../src/index.js";
import { faults, SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import { clientFor, useFakeService } from "../integration/helpers.js";
import { chatParams, guardProcess, PATHS, runOperation, settle, trainingJob, within } from "./harness.js";
import { HOSTILE_CASES, type HostileId } from "./hostile-table.js";
import { renderHostileTable } from "./render-table.js";

const guard = guardProcess();

type TransportName = "undici" | "fetch";
const BOUND_MS = 15_000;

const fake = useFakeService();

function transportOptions(transport: TransportName | undefined): ClientOptions {
  return transport === "fetch" ? { fetch: (url, init) => globalThis.fetch(url, init) } : {};
}

function client(transport: TransportName | undefined, options: ClientOptions = {}): Inferloop {
  return clientFor(fake.svc, { ...transportOptions(transport), ...options });
}

/** The error `promise` rejected with, within the bound (a resolution fails the test). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await within(BOUND_MS, settle(promise));
  if ("value" in outcome) throw new Error("expected a rejection, but it resolved");
  expect(outcome.error).toBeInstanceOf(InferloopError);
  return outcome.error as Error;
}

const sentTo = (path: string) => fake.svc.requests.filter((r) => r.path === path);

/** Every string reachable from an error (message, stack, cause chain, own properties). */
function everything(err: unknown): string {
  return `${inspect(err, { depth: Number.POSITIVE_INFINITY, showHidden: true })}\n${String((err as Error)?.stack)}`;
}

const chatPath = PATHS.chat;
const callsPath = PATHS.calls;
const jobsPath = PATHS.jobs;

const RUNS: Record<HostileId, (transport: TransportName | undefined) => Promise<void>> = {
  async deepErrorBody(t) {
    fake.svc.inject(faults.deepErrorBody({ path: PATHS.models }));
    const err = (await rejection(client(t).models.list())) as APIError;
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(500);
    // The body is cut short by the error-body cap; the envelope's message is still read from it.
    expect(err.message).toBe("500 nested 50000 deep");
  },

  async protoErrorBody(t) {
    fake.svc.inject(faults.protoErrorBody({ path: PATHS.progress }));
    const err = (await rejection(
      client(t).annotationQueues.items.progress(SEED_QUEUE_ID, SEED_ITEM_IDS[0], {
        annotation_state: "completed",
        project_id: SEED_PROJECT_ID,
      }),
    )) as UnprocessableEntityError;
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    const body = err.body as Record<string, any>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(body.error)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(err.detail[0])).toBe(Object.prototype);
    expect(body.polluted).toBeUndefined();
    expect(body.error.polluted).toBeUndefined();
    expect(err.detail[0]!.polluted).toBeUndefined();
    // The key itself is kept, as data.
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(err.message).toBe("422 proto body");
  },

  async htmlTitleLinear() {
    const page = `<!doctype html><html><head>${"<title".repeat(350_000)}</head></html>`;
    const found = runInNewContext("parse(502, page, 'text/html')", { parse: parseErrorBody, page }, { timeout: 5_000 });
    expect(found.message).toBe("502 Bad Gateway (an HTML error page, likely from a proxy or gateway)");
    const titled = `${"<title".repeat(350_000)}<title>Upstream down</title>`;
    const named = runInNewContext(
      "parse(502, page, 'text/html')",
      { parse: parseErrorBody, page: titled },
      {
        timeout: 5_000,
      },
    );
    expect(named.message).toContain(": Upstream down)");
  },

  async nullBody(t) {
    for (const op of ["chat", "models", "progress", "jobs"] as const) {
      fake.svc.reset();
      fake.svc.inject(faults.oddJson(null, { path: PATHS[op] }));
      const err = await rejection(runOperation(client(t, { maxRetries: 2 }), op));
      expect(err, op).toBeInstanceOf(ResponseParseError);
      expect(err.message).toMatch(/is null, expected an object/);
      expect(sentTo(PATHS[op]), `${op}: not retried`).toHaveLength(1);
    }
  },

  async nullChoice(t) {
    fake.svc.inject(faults.oddJson({ id: "x", object: "chat.completion", choices: [null] }, { path: chatPath }));
    const err = await rejection(client(t, { maxRetries: 2 }).chat.completions.create(chatParams));
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err.message).toBe("The `choices.0` of chat completion is null, expected an object.");
    expect(sentTo(chatPath)).toHaveLength(1);
  },

  async oddChunks(t) {
    const cases: Array<[unknown, string]> = [
      [null, "The stream chunk 2 is null"],
      [{ choices: [null] }, "`choices.0` of stream chunk 2 is null"],
      [{ choices: [{ index: 0, delta: { tool_calls: [null] } }] }, "`choices.0.delta.tool_calls.0` of stream chunk 2"],
      [
        { choices: [{ index: 0, delta: {}, logprobs: { content: 5 } }] },
        "`choices.0.logprobs.content` of stream chunk 2",
      ],
    ];
    for (const [payload, message] of cases) {
      fake.svc.reset();
      fake.svc.inject(faults.oddChunk(payload, { path: chatPath, afterChunks: 1 }));
      const sink = {};
      const err = await rejection(runOperation(client(t), "chatStream", {}, sink));
      expect(err, message).toBeInstanceOf(ResponseParseError);
      expect(err.message).toContain(message);
      expect((sink as { chunks: unknown[] }).chunks).toHaveLength(1);
    }
  },

  async jobWithoutId(t) {
    fake.svc.inject(faults.oddJson({}, { path: jobsPath }));
    const err = await rejection(client(t).trainingJobs.create(trainingJob));
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err.message).toContain("`id` of training_jobs.create response");
  },

  async ignoresLimit(t) {
    fake.svc.inject(faults.ignoresLimit({ path: callsPath }));
    const records = await within(BOUND_MS, client(t).calls.query({ project_id: SEED_PROJECT_ID, limit: 5 }).toArray());
    expect(records.map((r) => r.id)).toEqual(["ignored-0", "ignored-1", "ignored-2", "ignored-3", "ignored-4"]);
    expect(sentTo(callsPath)).toHaveLength(1);
  },

  async pagesIgnoreLimit(t) {
    fake.svc.inject(faults.ignoresLimit({ path: callsPath }));
    const pages: string[][] = [];
    const query = client(t).calls.query({ project_id: SEED_PROJECT_ID, limit: 6 }, { pageSize: 2 });
    await within(
      BOUND_MS,
      (async () => {
        for await (const page of query.pages()) pages.push(page.map((r) => r.id));
      })(),
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2]);
    expect(pages[0]).toEqual(["ignored-0", "ignored-1"]);
  },

  async retryAfterNotDigits(t) {
    for (const value of ["0x10", "1e1", "+3"]) {
      fake.svc.reset();
      fake.svc.inject(faults.status(429, { path: PATHS.models, headers: { "retry-after": value } }));
      const err = (await rejection(client(t).models.list())) as RateLimitError;
      expect(err, value).toBeInstanceOf(RateLimitError);
      expect(err.retryAfter, value).toBeUndefined();
    }
  },

  async requestOptions(t) {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ maxRetries: Number.NaN }, "maxRetries"],
      [{ maxRetries: Number.POSITIVE_INFINITY }, "maxRetries"],
      [{ maxRetries: "3" }, "maxRetries"],
      [{ maxRetries: -1 }, "maxRetries"],
      [{ maxRetries: 1.5 }, "maxRetries"],
      [{ timeout: Number.NaN }, "timeout"],
      [{ timeout: -1 }, "timeout"],
      [{ timeout: "5" }, "timeout"],
      [{ idleTimeout: Number.NaN }, "idleTimeout"],
      [{ idleTimeout: -1 }, "idleTimeout"],
      [{ idleTimeout: "5" }, "idleTimeout"],
      [{ signal: {} }, "signal"],
      [{ headers: { "x-n": 5 } }, "headers.x-n"],
    ];
    const c = client(t);
    for (const [options, path] of bad) {
      const err = (await rejection(c.models.list(options as never))) as RequestValidationError;
      expect(err, path).toBeInstanceOf(RequestValidationError);
      expect(err.issues.map((i) => i.path)).toEqual([path]);
      if (path !== "signal") {
        // The constructor refuses the same value with the same words.
        const ctorOptions = path === "headers.x-n" ? { defaultHeaders: options.headers } : options;
        const ctor = (() => {
          try {
            client(t, ctorOptions as ClientOptions);
          } catch (e) {
            return e as RequestValidationError;
          }
          throw new Error(`constructor accepted ${path}`);
        })();
        expect(ctor).toBeInstanceOf(RequestValidationError);
        expect(ctor.issues[0]!.message).toBe(err.issues[0]!.message);
      }
      // Streams and call queries go through the same check.
      expect(
        await rejection(c.chat.completions.create({ ...chatParams, stream: true }, options as never)),
      ).toBeInstanceOf(RequestValidationError);
      expect(
        await rejection(c.calls.query({ project_id: SEED_PROJECT_ID }, options as never).toArray()),
      ).toBeInstanceOf(RequestValidationError);
    }
    expect(fake.svc.requests).toHaveLength(0);
  },

  async idempotencyKey(t) {
    fake.svc.inject(faults.serviceUnavailable({ path: jobsPath, times: 3 }));
    for (const key of ["", "   ", null, 42, "a\nb"]) {
      const err = (await rejection(
        client(t, { maxRetries: 2 }).trainingJobs.create(trainingJob, { idempotencyKey: key as never }),
      )) as RequestValidationError;
      expect(err, String(key)).toBeInstanceOf(RequestValidationError);
      expect(err.issues[0]!.path).toBe("idempotencyKey");
    }
    expect(fake.svc.requests).toHaveLength(0);
  },

  async unserializable(t) {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    let deep: unknown = {};
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const values: Array<[unknown, string]> = [
      [cycle, "self"],
      [10n, ""],
      [deep, "d"],
      [Number.NaN, ""],
      [Number.POSITIVE_INFINITY, ""],
    ];
    const c = client(t);
    for (const [value, inner] of values) {
      const at = (base: string) => (inner ? `${base}.${inner}` : base);
      const requests: Array<[Record<string, unknown>, string]> = [
        [{ ...chatParams, chat_template_kwargs: { x: value } }, "chat_template_kwargs.x"],
        [
          { ...chatParams, response_format: { type: "json_schema", json_schema: { name: "n", schema: { x: value } } } },
          "response_format.json_schema.schema.x",
        ],
        [
          {
            ...chatParams,
            tools: [{ type: "function", function: { name: "f", parameters: { x: value } } }],
          },
          "tools.0.function.parameters.x",
        ],
      ];
      for (const [params, path] of requests) {
        const err = (await rejection(c.chat.completions.create(params as never))) as RequestValidationError;
        expect(err, path).toBeInstanceOf(RequestValidationError);
        expect(err.issues[0]!.path.startsWith(at(path).split(".d")[0]!)).toBe(true);
        expect(err.message.length).toBeLessThan(400);
      }
    }
    expect(fake.svc.requests).toHaveLength(0);
  },

  async changesAfterValidation(t) {
    let contentReads = 0;
    let kwargsReads = 0;
    const message = {
      role: "user",
      get content() {
        return contentReads++ === 0 ? "what was validated" : 42;
      },
    };
    const kwargs = {
      toJSON() {
        return kwargsReads++ === 0 ? { enable_thinking: false } : { enable_thinking: "sneaky", extra: Number.NaN };
      },
    };
    await within(
      BOUND_MS,
      client(t).chat.completions.create({ ...chatParams, messages: [message], chat_template_kwargs: kwargs } as never),
    );
    const sent = sentTo(chatPath)[0]!.json as Record<string, any>;
    expect(sent.messages[0].content).toBe("what was validated");
    expect(sent.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(contentReads).toBe(1);
    expect(kwargsReads).toBe(1);
  },

  async nonObjectParams(t) {
    const c = client(t);
    let query: ReturnType<typeof c.calls.query> | undefined;
    expect(() => {
      query = c.calls.query(null as never);
    }).not.toThrow();
    expect(await rejection(query!.toArray())).toBeInstanceOf(RequestValidationError);
    expect(() => {
      query = c.calls.query({ project_id: SEED_PROJECT_ID, sort_by: [null] } as never);
    }).not.toThrow();
    const sortErr = (await rejection(query!.toArray())) as RequestValidationError;
    expect(sortErr.issues[0]!.path).toBe("sort_by.0");
    for (const params of [null, "hello", [chatParams]]) {
      const err = (await rejection(c.chat.completions.create(params as never))) as RequestValidationError;
      expect(err).toBeInstanceOf(RequestValidationError);
      expect(err.issues[0]!.message).toMatch(/^must be an object/);
    }
    expect(fake.svc.requests).toHaveLength(0);
  },

  async loneSurrogate(t) {
    const c = client(t);
    for (const [queueId, itemId] of [
      ["queue-\uD83D", "item"],
      ["queue", "\uDE00item"],
    ]) {
      const err = (await rejection(
        c.annotationQueues.items.progress(queueId!, itemId!, {
          annotation_state: "completed",
          project_id: SEED_PROJECT_ID,
        }),
      )) as RequestValidationError;
      expect(err).toBeInstanceOf(RequestValidationError);
      expect(err.issues[0]!.path).toBe(queueId === "queue" ? "itemId" : "queueId");
    }
    // A well-formed emoji is a fine id.
    await within(
      BOUND_MS,
      settle(
        c.annotationQueues.items.progress("queue-😀", "item", {
          annotation_state: "completed",
          project_id: SEED_PROJECT_ID,
        }),
      ),
    );
    expect(fake.svc.requests.map((r) => r.path)).toEqual(["/annotation_queues/queue-%F0%9F%98%80/items/item/progress"]);
  },

  async baseURLUserinfo() {
    for (const options of [
      { baseURL: "http://user:hunter2-PASSWORD@127.0.0.1:9/" },
      { baseURL: "http://127.0.0.1:9", traceBaseURL: "https://weave:hunter2-PASSWORD@trace.example.com" },
      { baseURL: "http://:hunter2-PASSWORD@127.0.0.1:9/" },
    ]) {
      let err: unknown;
      try {
        new Inferloop({ apiKey: "k", ...options });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InferloopError);
      const which = options.traceBaseURL ? "traceBaseURL" : "baseURL";
      expect((err as Error).message).toContain(`\`${which}\` must not contain credentials`);
      expect((err as Error).message).toContain("`username` and `password`");
      expect(everything(err)).not.toContain("hunter2");
    }
  },

  async causeSecrets(t) {
    const key = "sk-live-CAUSE\u0001SECRET-7f3a9c";
    const password = "pw-CAUSE-SECRET-2b8d";
    const basic = Buffer.from(`api:${password}`).toString("base64");
    const forbidden = ["CAUSE\u0001SECRET", "CAUSE-SECRET", basic];
    const check = (err: unknown) => {
      const text = everything(err);
      for (const f of forbidden) expect(text, `leaks ${JSON.stringify(f)}`).not.toContain(f);
    };

    // A key no header can carry: refused when the client is made (RequestValidationError),
    // before any transport sees it.
    check(await rejection(Promise.resolve().then(() => client(t, { apiKey: key, maxRetries: 1 }).models.list())));

    // A transport of the caller's whose error carries the whole request.
    const carrying: ClientOptions =
      t === "fetch"
        ? {
            fetch: async (url, init) => {
              const err = new Error(`request to ${url} failed with ${JSON.stringify(init.headers)}`);
              throw Object.assign(err, { request: init, cause: { headers: init.headers } });
            },
          }
        : {
            dispatcher: {
              request: async (opts: { headers: Record<string, string> }) => {
                const err = new Error(`request failed with ${JSON.stringify(opts.headers)}`);
                throw Object.assign(err, { options: opts, cause: new Error(`auth ${opts.headers.authorization}`) });
              },
            } as never,
          };
    const c = client(undefined, { apiKey: "sk-live-CAUSE-SECRET-key", password, ...carrying });
    check(await rejection(c.models.list()));
    if (t === "fetch") {
      // A body that fails mid-stream with the request in its error: scrubbed after hand-over too.
      const failing = client(undefined, {
        apiKey: "sk-live-CAUSE-SECRET-key",
        fetch: async (_url, init) => {
          const auth = (init.headers as Record<string, string>).authorization;
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(
                new TextEncoder().encode('data: {"id":"c","object":"chat.completion.chunk","choices":[]}\n\n'),
              );
              controller.error(new Error(`upstream dropped ${auth}`));
            },
          });
          return new Response(body, { headers: { "content-type": "text/event-stream" } });
        },
      });
      check(await rejection(runOperation(failing, "chatStream")));
    }
    check(
      await rejection(
        c.annotationQueues.items.progress(SEED_QUEUE_ID, "i", {
          annotation_state: "completed",
          project_id: SEED_PROJECT_ID,
        }),
      ),
    );
  },

  async parseUnawaited(t) {
    const Answer = z.object({ answer: z.string() });
    const params = {
      ...chatParams,
      response_format: zodResponseFormat(Answer, "answer"),
    };
    fake.svc.inject(faults.serviceUnavailable({ path: chatPath }));
    const before = guard.rejections.length;
    // Deliberately dropped: the point is that nobody awaits it.
    void client(t).chat.completions.parse(params);
    await new Promise((r) => setTimeout(r, 300));
    expect(guard.rejections.slice(before)).toEqual([]);
    expect(sentTo(chatPath)).toHaveLength(1);

    fake.svc.reset();
    fake.svc.inject(
      faults.oddJson(
        {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 0,
          model: chatParams.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: '{"answer":"42"}' },
              finish_reason: "stop",
              logprobs: null,
            },
          ],
        },
        { path: chatPath, headers: { "x-request-id": "req-parse-1" } },
      ),
    );
    const { data, response } = await within(BOUND_MS, client(t).chat.completions.parse(params).withResponse());
    expect(data.choices[0]?.message.parsed).toEqual({ answer: "42" });
    expect(response.status).toBe(200);
    expect(response.requestId).toBe("req-parse-1");
  },
};

describe("hostile servers and hostile inputs (table-driven)", () => {
  for (const c of HOSTILE_CASES) {
    const transports: Array<TransportName | undefined> = c.transports === "both" ? ["undici", "fetch"] : [undefined];
    for (const t of transports) it(`${c.label}${t ? ` (${t})` : ""} → ${c.outcome}`, () => RUNS[c.id](t), 30_000);
  }
});

describe("docs/reliability.md", () => {
  it("holds the hostile-case table generated from hostile-table.ts", () => {
    const doc = readFileSync(new URL("../../docs/reliability.md", import.meta.url), "utf8");
    expect(doc).toContain(renderHostileTable(HOSTILE_CASES));
  });
});
