/**
 * Every request-case table (`tests/cases/request-case.ts`) against the fake service, sent as raw
 * HTTP to the method and path the row's endpoint declares: the fake answers what the real server
 * answers (its status, and for a refusal its reason or a 422's `detail` list).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeService, referenceCalls, startFakeService } from "../../src/testing/index.js";
import { type RequestCase, requestCaseTables } from "../cases/request-case.js";
import { endpointOf } from "../endpoints.js";
import { basic, bearer } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, calls: referenceCalls() });
});
afterAll(() => svc.close());
beforeEach(() => svc.reset());

async function send(c: RequestCase, body: unknown): Promise<Response> {
  const ep = endpointOf(c.operation);
  const path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(c.pathArguments?.[name] ?? ""));
  const auth = ep.service === "trace" ? basic(svc) : bearer(svc);
  const query = ep.query ? `?${new URLSearchParams(body as Record<string, string>)}` : "";
  return fetch(`${svc.url}${path}${query}`, {
    method: ep.method,
    headers: { ...auth, "content-type": "application/json" },
    body: ep.query || ep.method === "GET" ? undefined : JSON.stringify(body),
  });
}

for (const [table, cases] of await requestCaseTables()) {
  describe(`${table} against the fake service`, () => {
    const accepted = cases.filter((c) => "accepted" in c.real);
    const refused = cases.filter((c) => !("accepted" in c.real));

    it.each(accepted.map((c) => [`${c.operation}: ${c.name}`, c] as const))("accepts %s", async (_n, c) => {
      const res = await send(c, c.sdkSends ?? c.params);
      expect(res.status, `${c.source}\n${await res.clone().text()}`).toBe(200);
    });

    it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
      "refuses %s as the real server does",
      async (_n, c) => {
        const res = await send(c, c.params);
        const real = c.real as { status: number; reason?: string };
        const body = (await res.json()) as { reason?: string; detail?: unknown };
        expect(res.status, c.source).toBe(real.status);
        if (real.status === 422) expect(Array.isArray(body.detail)).toBe(true);
        else if (real.reason !== undefined) expect(JSON.stringify(body)).toContain(real.reason);
      },
    );
  });
}
