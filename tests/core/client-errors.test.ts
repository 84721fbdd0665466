import util from "node:util";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  type APIError,
  AuthenticationError,
  type Inferloop,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from "../../src/index.js";
import { BASE, chatParams, KEY, makeClient, modelList, PASSWORD, TRACE, useMsw } from "./msw-setup.js";

const { server, seen } = useMsw();

const basicValue = Buffer.from(`api:${PASSWORD}`).toString("base64");
const SECRETS = [KEY, PASSWORD, basicValue];

/** Every way a user might print an error or a client. */
function renderings(value: unknown): string[] {
  const out = [
    JSON.stringify(value),
    util.inspect(value),
    util.inspect(value, { depth: Infinity, showHidden: true }),
    String(value),
  ];
  if (value instanceof Error) out.push(value.message, String(value.stack));
  return out;
}

function expectNoSecret(texts: string[]) {
  for (const t of texts) for (const s of SECRETS) expect(t).not.toContain(s);
}

const fail = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  server.use(
    http.get(`${BASE}/v1/models`, () => HttpResponse.json(body as Record<string, unknown>, { status, headers })),
  );

describe("errors carry the response", () => {
  it("has status, headers, body, requestId and message", async () => {
    const body = { error: { message: "no such model", type: "NotFoundError", param: "model", code: 404 } };
    fail(404, body, { "x-request-id": "req_abc", "x-ratelimit-remaining": "7" });
    const err = (await makeClient()
      .models.list()
      .catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.status).toBe(404);
    expect(err.headers.get("x-ratelimit-remaining")).toBe("7");
    expect(err.body).toEqual(body);
    expect(err.requestId).toBe("req_abc");
    expect(err.message).toBe("404 no such model");
    expect(err.type).toBe("NotFoundError");
    expect(err.param).toBe("model");
  });

  it("a 422 carries the server's detail list", async () => {
    const detail = [{ loc: ["body", "messages", 0, "role"], msg: "Input should be 'user'", type: "literal_error" }];
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.json({ detail }, { status: 422 })));
    const err = (await makeClient()
      .chat.completions.create(chatParams)
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect(err.detail).toEqual(detail);
    expect(err.message).toContain("body.messages.0.role: Input should be 'user'");
  });

  it("reads the trace server's {reason} on a Basic-auth operation", async () => {
    server.use(
      http.post(`${TRACE}/annotation_queues/:q/items/:i/progress`, () =>
        HttpResponse.json({ reason: "no access to acme/bot" }, { status: 403 }),
      ),
    );
    const err = await makeClient({ traceBaseURL: TRACE })
      .annotationQueues.items.progress("q", "i", { annotation_state: "completed", project_id: "acme/bot" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((err as Error).message).toBe("403 no access to acme/bot");
  });

  it("reduces a proxy's HTML page to a short message", async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head><body>${"<p>nginx</p>".repeat(1000)}</body></html>`;
    server.use(
      http.get(
        `${BASE}/v1/models`,
        () => new HttpResponse(page, { status: 502, headers: { "content-type": "text/html" } }),
      ),
    );
    const err = (await makeClient({ maxRetries: 0 })
      .models.list()
      .catch((e: unknown) => e)) as APIError;
    expect(err.status).toBe(502);
    expect(err.message).toContain("502 Bad Gateway");
    expect(err.message.length).toBeLessThan(200);
  });
});

describe("secrets never leak", () => {
  it("not from an error whose body echoes the key and the Authorization header", async () => {
    fail(401, {
      error: { message: `Invalid API key ${KEY} (Authorization: Bearer ${KEY})`, type: "auth", param: KEY },
    });
    const err = await makeClient()
      .models.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toContain("Invalid API key");
    expectNoSecret(renderings(err));
  });

  it("not from response headers that echo the key", async () => {
    fail(
      401,
      { error: { message: "no" } },
      { "x-echo-authorization": `Bearer ${KEY}`, "x-debug-key": KEY, "x-request-id": "req_1" },
    );
    const err = (await makeClient()
      .models.list()
      .catch((e: unknown) => e)) as APIError;
    expectNoSecret(renderings(err));
    expectNoSecret([...err.headers.values()]);
    expect(err.requestId).toBe("req_1");
  });

  it("not from a plain-text error body that echoes the key", async () => {
    server.use(http.get(`${BASE}/v1/models`, () => new HttpResponse(`bad key: ${KEY}`, { status: 401 })));
    const err = await makeClient()
      .models.list()
      .catch((e: unknown) => e);
    expect((err as Error).message).toContain("bad key");
    expectNoSecret(renderings(err));
  });

  it("not from a Basic-auth error that echoes the password and the encoded header", async () => {
    server.use(
      http.post(`${BASE}/annotation_queues/:q/items/:i/progress`, () =>
        HttpResponse.json({ detail: `wrong password ${PASSWORD}; got Basic ${basicValue}` }, { status: 401 }),
      ),
    );
    const err = await makeClient({ password: PASSWORD })
      .annotationQueues.items.progress("q", "i", { annotation_state: "completed", project_id: "acme/bot" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expectNoSecret(renderings(err));
  });

  it("not from an in-stream error event that echoes the key", async () => {
    const sse = `data: {"error":{"message":"key ${KEY} revoked","code":401}}\n\n`;
    server.use(
      http.post(
        `${BASE}/v1/chat/completions`,
        () => new HttpResponse(sse, { headers: { "content-type": "text/event-stream" } }),
      ),
    );
    const stream = await makeClient().chat.completions.create({ ...chatParams, stream: true });
    let err: unknown;
    try {
      for await (const _ of stream) void _;
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthenticationError);
    expectNoSecret(renderings(err));
  });

  it("not from the client, however it is printed", () => {
    const clients: Inferloop[] = [
      makeClient({ password: PASSWORD }),
      makeClient({ password: PASSWORD }).withOptions({ timeout: 1 }),
    ];
    for (const c of clients) {
      expectNoSecret(renderings(c));
      expectNoSecret(renderings(c.chat));
      expectNoSecret(renderings(c.calls));
    }
  });

  it("not from debug logs, which show no Authorization value", async () => {
    fail(500, { error: { message: `boom for ${KEY}` } }, { "retry-after-ms": "1" });
    server.use(
      http.post(`${BASE}/annotation_queues/:q/items/:i/progress`, () =>
        HttpResponse.json({ detail: `bad ${PASSWORD}` }, { status: 401 }),
      ),
    );
    const lines: string[] = [];
    const capture = (...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : util.inspect(a, { depth: Infinity }))).join(" "));
    };
    const logger = { error: capture, warn: capture, info: capture, debug: capture };
    const client = makeClient({ password: PASSWORD, logger, logLevel: "debug", maxRetries: 1 });
    await client.models.list().catch(() => {});
    await client.annotationQueues.items
      .progress("q", "i", { annotation_state: "completed", project_id: "acme/bot" }, { headers: { "X-Api-Key": KEY } })
      .catch(() => {});
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("\n")).toMatch(/authorization/i);
    expectNoSecret(lines);
    for (const l of lines) expect(l).not.toMatch(/(Bearer|Basic) (?!\[redacted\])\S/);
  });

  it("sends the real credentials on the wire all the same", async () => {
    server.use(http.get(`${BASE}/v1/models`, () => HttpResponse.json(modelList)));
    await makeClient({ logLevel: "debug", logger: { error() {}, warn() {}, info() {}, debug() {} } }).models.list();
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${KEY}`);
  });
});
