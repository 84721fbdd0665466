/**
 * Every request-case table (`tests/cases/request-case.ts`) against the fake service, sent as raw
 * HTTP to the method and path the row's endpoint declares: the fake answers what the real server
 * answers (its status, and for a refusal its reason or its error envelope: FastAPI's 422
 * `detail` list, vLLM's `error` object). A row's `given` first makes what the row assumes the
 * server holds, and the ids it made replace the row's example ids.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeService, referenceCalls, startFakeService } from "../../src/testing/index.js";
import { type RequestCase, requestCaseTables } from "../cases/request-case.js";
import { endpointOf } from "../endpoints.js";
import { clientFor } from "../integration/helpers.js";
import { basic, bearer } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, calls: referenceCalls() });
});
afterAll(() => svc.close());
beforeEach(() => svc.reset());

/** `value` with each string `ids` has a key for replaced by its value. */
function withIds<T>(value: T, ids: Record<string, string>): T {
  if (typeof value === "string") return (ids[value] ?? value) as T;
  if (Array.isArray(value)) return value.map((v) => withIds(v, ids)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, ids)])) as T;
  return value;
}

async function send(c: RequestCase, body: unknown): Promise<Response> {
  const ep = endpointOf(c.operation);
  const ids = c.given ? await c.given(clientFor(svc)) : {};
  body = withIds(body, ids);
  const path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(withIds(c.pathArguments?.[name] ?? "", ids)),
  );
  const auth = ep.service === "trace" ? basic(svc) : bearer(svc);
  const query = ep.query ? `?${new URLSearchParams(body as Record<string, string>)}` : "";
  return fetch(`${svc.url}${path}${query}`, {
    method: ep.method,
    headers: { ...auth, "content-type": "application/json" },
    body: ep.query || ep.method === "GET" ? undefined : JSON.stringify(body),
  });
}

/** A row's source and rule, for a failure's message. */
const about = (c: RequestCase) => (c.why ? `${c.source}: ${c.why}` : c.source);

for (const [table, cases] of await requestCaseTables()) {
  describe(`${table} against the fake service`, () => {
    const accepted = cases.filter((c) => "accepted" in c.real);
    const refused = cases.filter((c) => !("accepted" in c.real));

    it.each(accepted.map((c) => [`${c.operation}: ${c.name}`, c] as const))("accepts %s", async (_n, c) => {
      const res = await send(c, c.sdkSends ?? c.params);
      expect(res.status, `${about(c)}\n${await res.clone().text()}`).toBe(200);
    });

    it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
      "refuses %s as the real server does",
      async (_n, c) => {
        const res = await send(c, c.params);
        const real = c.real as { status: number; reason?: string };
        const body = (await res.json()) as { reason?: string; detail?: unknown; error?: unknown };
        expect(res.status, about(c)).toBe(real.status);
        if (real.reason !== undefined) expect(JSON.stringify(body)).toContain(real.reason);
        if (endpointOf(c.operation).service === "inference") {
          // vLLM's error envelope: {"error": {message, type, param, code}}.
          expect(body.error).toMatchObject({ type: "BadRequestError", code: real.status, message: expect.any(String) });
          expect(body.error).toHaveProperty("param");
        } else if (real.status === 422) {
          expect(Array.isArray(body.detail)).toBe(true);
          for (const d of body.detail as unknown[])
            expect(d).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
        }
      },
    );
  });
}
