/**
 * Hostile servers over real loopback HTTP, on both transports (undici by default, and a
 * standard `fetch`): keep-alive-only streams, endless values, compressed bodies and bombs,
 * redirects, endless error bodies, bad chunk indices, and a slow consumer. Every case ends in
 * a typed error or a correct result; `within()` turns a hang into a failure.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import {
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  type ClientOptions,
  type Inferloop,
  InferloopError,
  ResponseParseError,
  ResponseTooLargeError,
} from "../../src/index.js";
import { type FakeService, faults, startFakeService } from "../../src/testing/index.js";
import { within } from "../reliability/harness.js";
import { captureWarnings } from "../warnings.js";
import { caught, clientFor, eventually, MODEL, MODEL_ID } from "./helpers.js";

const CHAT = "/v1/chat/completions";
const MODELS = "/v1/models";
const CALLS = "/calls/stream_query";
const JOBS = "/v1/preview/training-jobs";
const BOUND_MS = 10_000;
const PROJECT = "acme/support-bot";
const MIB = 1024 * 1024;

const streamParams = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "echo hello there" }],
  stream: true as const,
};
const chatParams = { model: MODEL, messages: [{ role: "user" as const, content: "echo hello" }] };

const TRANSPORTS: Array<{ name: string; options: ClientOptions }> = [
  { name: "undici", options: {} },
  { name: "fetch", options: { fetch: (url, init) => fetch(url, init) } },
];

async function withService<T>(
  use: (svc: FakeService, client: (o?: ClientOptions) => Inferloop) => Promise<T>,
  transport: ClientOptions,
  options: Parameters<typeof startFakeService>[0] = {},
): Promise<T> {
  const svc = await startFakeService(options);
  try {
    return await use(svc, (o = {}) => clientFor(svc, { ...transport, ...o }));
  } finally {
    await svc.close();
  }
}

/** Reads a stream to its end, keeping what arrived before a failure. */
async function readStream(client: Inferloop, options: Record<string, unknown> = {}) {
  const texts: string[] = [];
  const outcome = await within(
    BOUND_MS,
    caught(async () => {
      const stream = await client.chat.completions.create(streamParams, options);
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? "");
    }).catch((e: unknown) => e),
  );
  return { error: outcome, texts };
}

/** A loopback server whose handler is the test's, recording when each response is closed. */
async function rawServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const closed: number[] = [];
  const server = createServer((req, res) => {
    res.on("close", () => closed.push(Date.now()));
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    closed,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const CHUNK = (content: string, index: unknown = 0) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index, delta: { content }, finish_reason: null }] })}\n\n`;

for (const transport of TRANSPORTS) {
  describe(`${transport.name} transport`, () => {
    describe("eventTimeout: keep-alives are not events", () => {
      it("a stream of one chunk then only `: ping` comments fails with APIConnectionTimeoutError naming eventTimeout", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.keepAliveOnly({ path: CHAT, afterChunks: 1, everyMs: 50 }));
          const { error, texts } = await readStream(client({ eventTimeout: 400, idleTimeout: 60_000 }));
          expect(error).toBeInstanceOf(APIConnectionTimeoutError);
          expect((error as Error).message).toContain("eventTimeout");
          expect((error as Error).message).toContain("400 ms");
          expect(texts.length).toBe(1);
          expect(svc.requests).toHaveLength(1);
        }, transport.options);
      });

      it("the request option overrides the client's eventTimeout", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.keepAliveOnly({ path: CHAT, afterChunks: 0, everyMs: 50 }));
          const { error } = await readStream(client(), { eventTimeout: 300 });
          expect(error).toBeInstanceOf(APIConnectionTimeoutError);
          expect((error as Error).message).toContain("300 ms (eventTimeout)");
        }, transport.options);
      });

      it("a JSONL answer that sends only blank lines after one record fails the same way (no resume: maxRetries 0)", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.keepAliveOnly({ path: CALLS, afterChunks: 1, everyMs: 50, data: "\n" }));
          const got: unknown[] = [];
          const error = await within(
            BOUND_MS,
            caught(async () => {
              for await (const r of client({ eventTimeout: 400 }).calls.query({ project_id: PROJECT, limit: 5 }))
                got.push(r);
            }),
          );
          expect(error).toBeInstanceOf(APIConnectionTimeoutError);
          expect((error as Error).message).toContain("JSONL record");
          expect(got).toHaveLength(1);
        }, transport.options);
      });

      it("closes the HTTP request when it expires", async () => {
        const server = await rawServer((_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(CHUNK("hi"));
          const ping = setInterval(() => res.write(": ping\n\n"), 50);
          res.on("close", () => clearInterval(ping));
        });
        try {
          const client = new (await import("../../src/index.js")).Inferloop({
            baseURL: server.url,
            apiKey: "k-test-key",
            maxRetries: 0,
            eventTimeout: 300,
            ...transport.options,
          });
          const { error } = await readStream(client);
          expect(error).toBeInstanceOf(APIConnectionTimeoutError);
          expect(await eventually(() => server.closed.length === 1)).toBe(true);
        } finally {
          await server.close();
        }
      });
    });

    describe("maxBufferBytes: one value is bounded", () => {
      it("an endless SSE event fails with ResponseTooLargeError naming the option, not retried", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.endlessValue({ path: CHAT, format: "sse", afterChunks: 1 }));
          const { error, texts } = await readStream(client({ maxBufferBytes: MIB, maxRetries: 2 }));
          expect(error).toBeInstanceOf(ResponseTooLargeError);
          expect(error).not.toBeInstanceOf(APIError);
          expect((error as Error).message).toContain("maxBufferBytes");
          expect((error as ResponseTooLargeError).limit).toBe(MIB);
          expect(texts).toHaveLength(1);
          expect(svc.requests).toHaveLength(1);
        }, transport.options);
      });

      it("an endless JSONL line fails the same way, and the page is not resumed", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.endlessValue({ path: CALLS, format: "jsonl", afterChunks: 2 }));
          const got: unknown[] = [];
          const error = await within(
            BOUND_MS,
            caught(async () => {
              const query = client({ maxRetries: 2 }).calls.query(
                { project_id: PROJECT, limit: 5 },
                { maxBufferBytes: MIB },
              );
              for await (const r of query) got.push(r);
            }),
          );
          expect(error).toBeInstanceOf(ResponseTooLargeError);
          expect((error as Error).message).toMatch(/^Line 3 of the JSONL response/);
          expect(got).toHaveLength(2);
          expect(svc.requests).toHaveLength(1);
        }, transport.options);
      });

      it("a JSON body over the limit fails with ResponseTooLargeError and is not retried", async () => {
        await withService(async (svc, client) => {
          svc.inject(
            faults.body(JSON.stringify({ object: "list", data: [{ id: "x".repeat(2 * MIB) }] }), {
              path: MODELS,
              times: 3,
            }),
          );
          const error = await within(
            BOUND_MS,
            caught(() => client({ maxRetries: 2 }).models.list({ maxBufferBytes: MIB })),
          );
          expect(error).toBeInstanceOf(ResponseTooLargeError);
          expect((error as Error).message).toMatch(/^The JSON response body is larger than maxBufferBytes \(1048576/);
          expect(svc.requests).toHaveLength(1);
        }, transport.options);
      });

      it("a body just under the limit is read whole", async () => {
        await withService(async (svc, client) => {
          const id = "y".repeat(MIB - 100);
          svc.inject(faults.body(JSON.stringify({ object: "list", data: [{ id }] }), { path: MODELS }));
          const list = await client().models.list({ maxBufferBytes: MIB });
          expect(list.data[0]?.id === id).toBe(true);
        }, transport.options);
      });
    });

    describe("compressed bodies", () => {
      const encodings =
        transport.name === "undici" ? (["gzip", "br", "zstd", "deflate"] as const) : (["gzip", "br"] as const);
      for (const encoding of encodings) {
        it(`${encoding}: JSON, JSONL and a chat completion are decoded`, async () => {
          await withService(async (svc, client) => {
            const c = client();
            const plain = await c.models.list();
            const plainCalls = await c.calls.query({ project_id: PROJECT, limit: 50 }).toArray();
            svc.inject(faults.compressed(encoding, { path: MODELS }));
            svc.inject(faults.compressed(encoding, { path: CALLS }));
            svc.inject(faults.compressed(encoding, { path: CHAT }));
            expect(await c.models.list()).toEqual(plain);
            expect(await c.calls.query({ project_id: PROJECT, limit: 50 }).toArray()).toEqual(plainCalls);
            const completion = await c.chat.completions.create(chatParams);
            expect(completion.choices[0]?.message.content).toBe("hello");
          }, transport.options);
        });

        it(`${encoding}: a decompression bomb ends in ResponseTooLargeError, not in memory growth`, async () => {
          await withService(async (svc, client) => {
            svc.inject(faults.compressionBomb({ encoding, path: MODELS, prefix: "[" }));
            svc.inject(
              faults.compressionBomb({ encoding, path: CALLS, prefix: '{"id": "', contentType: "application/jsonl" }),
            );
            const c = client({ maxBufferBytes: MIB, maxRetries: 2 });
            const before = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
            expect(
              await within(
                BOUND_MS,
                caught(() => c.models.list()),
              ),
            ).toBeInstanceOf(ResponseTooLargeError);
            expect(
              await within(
                BOUND_MS,
                caught(() => c.calls.query({ project_id: PROJECT, limit: 5 }).toArray()),
              ),
            ).toBeInstanceOf(ResponseTooLargeError);
            const after = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
            // Endless bodies: without the cap neither call would end at all.
            expect(after - before).toBeLessThan(256 * MIB);
            expect(svc.requests).toHaveLength(2);
          }, transport.options);
        });
      }

      if (transport.name === "undici")
        for (const encoding of ["gzip", "br", "zstd"]) {
          it(`${encoding}: a corrupt compressed body is a ResponseParseError, not retried`, async () => {
            await withService(async (svc, client) => {
              svc.inject(
                faults.body("this is not compressed at all, whatever the header says", {
                  path: MODELS,
                  headers: { "content-type": "application/json", "content-encoding": encoding },
                  times: 3,
                }),
              );
              const error = await within(
                BOUND_MS,
                caught(() => client({ maxRetries: 2 }).models.list()),
              );
              expect(error).toBeInstanceOf(ResponseParseError);
              expect((error as Error).message).toContain("could not be decoded");
              expect(svc.requests).toHaveLength(1);
            }, transport.options);
          });
        }

      it("a server that compresses when asked serves a 2,000-record query that decodes exactly", async () => {
        await withService(
          async (svc, client) => {
            const c = client();
            const records = await c.calls.query({ project_id: "acme/synthetic" }, { pageSize: 1000 }).toArray();
            expect(records).toHaveLength(2000);
            expect(new Set(records.map((r) => r.id)).size).toBe(2000);
            const asked = svc.requests.filter((r) => r.path === CALLS).map((r) => r.headers["accept-encoding"] ?? "");
            expect(asked.every((a) => /gzip/.test(a))).toBe(true);
          },
          transport.options,
          { seedCalls: false, syntheticCalls: 2000, compression: true },
        );
      });
    });

    describe("redirects", () => {
      for (const status of [301, 302, 303, 307, 308]) {
        it(`${status} to another origin: not followed, the error names where (no query string) and the fix`, async () => {
          const elsewhere = await startFakeService();
          // An empty job warns that it trains nothing (once per process): expected here.
          const warnings = captureWarnings();
          try {
            await withService(async (svc, client) => {
              svc.inject(
                faults.redirect(`${elsewhere.url}/api/v1/preview/training-jobs?token=secret-in-query`, {
                  status,
                  path: JOBS,
                  times: 5,
                }),
              );
              const error = (await within(
                BOUND_MS,
                caught(() =>
                  client({ maxRetries: 2 }).trainingJobs.create(
                    { model_id: MODEL_ID, trajectory_groups: [] },
                    { idempotencyKey: "redirect-key" },
                  ),
                ),
              )) as APIError;
              expect(error).toBeInstanceOf(APIError);
              expect(error.status).toBe(status);
              expect(error.message).toContain(`${status} a redirect to ${elsewhere.url}/api/v1/preview/training-jobs;`);
              expect(error.message).toContain(`set \`baseURL\` to "${elsewhere.url}/api"`);
              expect(error.message).not.toContain("secret-in-query");
              expect(svc.requests).toHaveLength(1);
              expect(elsewhere.requests).toHaveLength(0);
            }, transport.options);
            // Said once per process: by the first of these tests that runs, not again.
            for (const code of warnings.codes()) expect(code).toBe("INFERLOOP_NO_TRAJECTORIES");
          } finally {
            await elsewhere.close();
          }
        });
      }

      it("a relative Location on the trace server names traceBaseURL", async () => {
        await withService(async (svc, client) => {
          svc.inject(faults.redirect("/moved/calls/stream_query", { path: CALLS }));
          const error = (await within(
            BOUND_MS,
            caught(() => client({ traceBaseURL: svc.url }).calls.query({ project_id: PROJECT }).toArray()),
          )) as APIError;
          expect(error.status).toBe(307);
          expect(error.message).toContain(`to ${svc.url}/moved/calls/stream_query;`);
          expect(error.message).toContain(`set \`traceBaseURL\` to "${svc.url}/moved"`);
        }, transport.options);
      });
    });

    describe("error bodies are read up to a cap", () => {
      it("an endless 503 body settles with InternalServerError and a short message", async () => {
        await withService(async (svc, client) => {
          svc.inject(
            faults.body(
              function* () {
                yield '{"error": {"message": "';
                for (;;) yield "z".repeat(64 * 1024);
              },
              { status: 503, path: MODELS },
            ),
          );
          const error = (await within(
            BOUND_MS,
            caught(() => client().models.list()),
          )) as APIError;
          expect(error.name).toBe("InternalServerError");
          expect(error.status).toBe(503);
          expect(error.message.length).toBeLessThanOrEqual(600);
        }, transport.options);
      });

      it("a 2 MiB error body still gives a message with its first characters, at most 500 of them", async () => {
        await withService(async (svc, client) => {
          const message = `${"m".repeat(499)}!${"n".repeat(2 * MIB)}`;
          svc.inject(faults.status(400, { path: MODELS, body: { error: { message, code: 400 } } }));
          const error = (await within(
            BOUND_MS,
            caught(() => client().models.list()),
          )) as APIError;
          expect(error.status).toBe(400);
          expect(error.message).toContain("m".repeat(400));
          expect(error.message.length).toBeLessThanOrEqual(520);
        }, transport.options);
      });
    });

    describe("chunk indices", () => {
      for (const [what, chunk, field] of [
        ['choices[0].index "__proto__"', CHUNK("evil", "__proto__"), "choices[0].index"],
        ["choices[0].index -1", CHUNK("evil", -1), "choices[0].index"],
        ["choices[0].index 1.5", CHUNK("evil", 1.5), "choices[0].index"],
        [
          'a tool-call index "constructor"',
          `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { tool_calls: [{ index: "constructor", function: { arguments: "{}" } }] } }] })}\n\n`,
          "choices[0].delta.tool_calls[0].index",
        ],
      ] as const) {
        it(`${what} is a ResponseParseError naming ${field}, after the good chunks`, async () => {
          await withService(async (svc, client) => {
            svc.inject(faults.insert(1, chunk, { path: CHAT }));
            const stream = await client().chat.completions.create(streamParams);
            const error = await within(
              BOUND_MS,
              caught(() => stream.finalCompletion()),
            );
            expect(error).toBeInstanceOf(ResponseParseError);
            expect((error as Error).message).toContain(field);
            expect((error as Error).message).toContain("Event 2");
            expect((error as Error).message).not.toContain("evil");
          }, transport.options);
        });
      }
    });

    describe("await using", () => {
      it("closes a stream's HTTP request at the end of the block", async () => {
        const server = await rawServer((_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(CHUNK("one"));
          res.write(CHUNK("two"));
        });
        try {
          const { Inferloop } = await import("../../src/index.js");
          const client = new Inferloop({ baseURL: server.url, apiKey: "k-test-key", ...transport.options });
          let first = "";
          {
            await using stream = await client.chat.completions.create(streamParams);
            for await (const chunk of stream) {
              first = chunk.choices[0]?.delta.content ?? "";
              break;
            }
            await using _again = await client.chat.completions.create(streamParams);
          }
          expect(first).toBe("one");
          expect(await eventually(() => server.closed.length === 2)).toBe(true);
        } finally {
          await server.close();
        }
      });

      it("closes a call query's open page request at the end of the block", async () => {
        const server = await rawServer((_req, res) => {
          res.writeHead(200, { "content-type": "application/jsonl" });
          res.write(`${JSON.stringify({ id: "r1" })}\n${JSON.stringify({ id: "r2" })}\n`);
        });
        try {
          const { Inferloop } = await import("../../src/index.js");
          const client = new Inferloop({ baseURL: server.url, apiKey: "k-test-key", ...transport.options });
          const seen: string[] = [];
          let query: ReturnType<Inferloop["calls"]["query"]> | undefined;
          {
            await using q = client.calls.query({ project_id: PROJECT, limit: 10 });
            query = q;
            for await (const r of q) {
              seen.push(r.id);
              if (seen.length === 1) break;
            }
          }
          expect(seen).toEqual(["r1"]);
          expect(await eventually(() => server.closed.length === 1)).toBe(true);
          expect(await caught(() => query!.toArray())).toBeInstanceOf(APIUserAbortError);
        } finally {
          await server.close();
        }
      });
    });

    it("a slow consumer does not trip idleTimeout once the data has arrived", async () => {
      await withService(async (svc, client) => {
        const stream = await client({ idleTimeout: 200 }).chat.completions.create({
          ...streamParams,
          max_completion_tokens: 4,
        });
        const texts: string[] = [];
        for await (const chunk of stream) {
          texts.push(chunk.choices[0]?.delta.content ?? "");
          await new Promise((r) => setTimeout(r, 350));
        }
        expect(texts.join("")).toBe("hello there");
        expect(svc.requests).toHaveLength(1);
      }, transport.options);
    });
  });
}

describe("header values are checked before sending", () => {
  const secret = "sk-live-abcdef123456";
  for (const [option, value] of [
    ["apiKey", `${secret}\n`],
    ["password", `${secret}\r\n`],
    ["username", "user\0name"],
    ["project", "acme/bot\r\nx-injected: 1"],
  ] as const) {
    it(`a line break or NUL in \`${option}\` is refused at construction, without echoing it`, async () => {
      const { Inferloop } = await import("../../src/index.js");
      const error = await caught(() => new Inferloop({ baseURL: "http://127.0.0.1:1", [option]: value }));
      expect(error).toBeInstanceOf(InferloopError);
      expect((error as { issues?: { path: string }[] }).issues?.[0]?.path).toBe(option);
      expect((error as Error).message).toContain(`${option}: `);
      expect((error as Error).message).not.toContain(secret);
      expect((error as Error).message).not.toContain("x-injected");
    });
  }

  it("a bad `defaultHeaders` entry is refused at construction, naming the header", async () => {
    const { Inferloop } = await import("../../src/index.js");
    const error = await caught(
      () => new Inferloop({ baseURL: "http://127.0.0.1:1", defaultHeaders: { "x-team": "a\nb" } }),
    );
    expect((error as Error).message).toContain("defaultHeaders.x-team: ");
    const badName = await caught(
      () => new Inferloop({ baseURL: "http://127.0.0.1:1", defaultHeaders: { "bad name": "v" } }),
    );
    expect((badName as Error).message).toContain("not a valid header name");
  });

  for (const transport of TRANSPORTS) {
    it(`${transport.name}: request headers and idempotencyKey with CR/LF/NUL are refused; nothing is sent or retried`, async () => {
      await withService(async (svc, client) => {
        const c = client({ maxRetries: 3 });
        const errors = [
          await caught(() => c.models.list({ headers: { "x-trace": `${secret}\r\nx-evil: 1` } })),
          await caught(() =>
            c.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [] }, { idempotencyKey: "key\n2" }),
          ),
          await caught(() => c.calls.query({ project_id: PROJECT }, { headers: { "x-a": "\0" } }).toArray()),
        ];
        expect(errors.map((e) => (e as Error).name)).toEqual(Array(3).fill("RequestValidationError"));
        expect((errors[0] as Error).message).toContain("headers.x-trace");
        expect((errors[0] as Error).message).not.toContain(secret);
        expect((errors[1] as Error).message).toContain("idempotencyKey");
        expect(svc.requests).toHaveLength(0);
      }, transport.options);
    });
  }
});

describe("a custom fetch that ignores its signal", () => {
  const deaf: ClientOptions["fetch"] = (url, init) => fetch(url, { ...init, signal: null });

  it("timeout still applies before the headers", async () => {
    await withService(
      async (svc, client) => {
        svc.inject(faults.stall({ path: MODELS }));
        const error = await within(
          BOUND_MS,
          caught(() => client({ timeout: 300 }).models.list()),
        );
        expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      },
      { fetch: deaf },
    );
  });

  it("idleTimeout still applies mid-body", async () => {
    await withService(
      async (svc, client) => {
        svc.inject(faults.stall({ path: CHAT, afterChunks: 1 }));
        const { error } = await readStream(client({ idleTimeout: 300 }));
        expect(error).toBeInstanceOf(APIConnectionTimeoutError);
        expect((error as Error).message).toContain("idleTimeout");
      },
      { fetch: deaf },
    );
  });

  it("eventTimeout still applies", async () => {
    await withService(
      async (svc, client) => {
        svc.inject(faults.keepAliveOnly({ path: CHAT, afterChunks: 1, everyMs: 50 }));
        const { error } = await readStream(client({ eventTimeout: 300 }));
        expect(error).toBeInstanceOf(APIConnectionTimeoutError);
        expect((error as Error).message).toContain("eventTimeout");
      },
      { fetch: deaf },
    );
  });

  it("the caller's abort still applies, before the headers and mid-stream", async () => {
    await withService(
      async (svc, client) => {
        svc.inject(faults.stall({ path: MODELS }));
        const ac = new AbortController();
        const pending = caught(() => client().models.list({ signal: ac.signal }));
        setTimeout(() => ac.abort(), 100);
        expect(await within(BOUND_MS, pending)).toBeInstanceOf(APIUserAbortError);

        svc.inject(faults.stall({ path: CHAT, afterChunks: 1 }));
        const ac2 = new AbortController();
        const stream = await client().chat.completions.create(streamParams, { signal: ac2.signal });
        const reading = caught(async () => {
          for await (const _ of stream) ac2.abort();
        });
        expect(await within(BOUND_MS, reading)).toBeInstanceOf(APIUserAbortError);
      },
      { fetch: deaf },
    );
  });
});
