/**
 * Every request-case table (`tests/cases/request-case.ts`) against the SDK's validation, through
 * the endpoint each row names: a refused row rejects with `RequestValidationError` naming its
 * field and sends nothing; a sent row goes out as written (its body, or its query), warning only
 * as the row says. A recording `fetch` stands in for the network and answers 500, so a call
 * (a stream too) ends right after its request is seen.
 */
import { describe, expect, it } from "vitest";
import { callEndpoint } from "../../src/core/pipeline/endpoint.js";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { Inferloop, RequestValidationError } from "../../src/index.js";
import { type RequestCase, requestCaseTables } from "../cases/request-case.js";
import { endpointOf } from "../endpoints.js";
import { captureWarnings } from "../warnings.js";

function recordingClient(): { http: HttpClient; sent: unknown[]; urls: URL[] } {
  const sent: unknown[] = [];
  const urls: URL[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    urls.push(new URL(String(url)));
    sent.push(init?.body === undefined ? undefined : JSON.parse(String(init.body)));
    return Response.json({ detail: "recorded" }, { status: 500 });
  };
  const client = new Inferloop({ baseURL: "http://server.test", apiKey: "k", fetch, maxRetries: 0 });
  return { http: (client.models as unknown as { _http: HttpClient })._http, sent, urls };
}

async function send(http: HttpClient, c: RequestCase): Promise<unknown> {
  const call = { params: c.params, pathArguments: c.pathArguments } as never;
  return callEndpoint(http, endpointOf(c.operation) as never, call, undefined).then(
    () => undefined,
    (e: unknown) => e,
  );
}

// What the SDK adds to a list's body on its own: the page window.
function withoutPaging(body: unknown): unknown {
  const { limit: _l, offset: _o, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A row's source and rule, for a failure's message. */
const about = (c: RequestCase) => (c.why ? `${c.source}: ${c.why}` : c.source);

for (const [table, cases] of await requestCaseTables()) {
  describe(`${table} against the SDK`, () => {
    const refused = cases.filter((c) => c.sdk !== "sends");
    const sent = cases.filter((c) => c.sdk === "sends");

    it("holds rows the real server accepts and refuses, and rows the SDK sends and refuses", () => {
      expect(cases.some((c) => "accepted" in c.real) && cases.some((c) => !("accepted" in c.real))).toBe(true);
      expect(refused.length > 0 && sent.length > 0).toBe(true);
    });

    it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
      "refuses %s before sending",
      async (_n, c) => {
        const { http, sent: bodies } = recordingClient();
        const err = await send(http, c);
        expect(err, about(c)).toBeInstanceOf(RequestValidationError);
        expect((err as Error).message).toMatch(/Nothing was sent/);
        expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(
          (c.sdk as { refuses: string }).refuses,
        );
        expect(bodies).toEqual([]);
      },
    );

    it.each(sent.map((c) => [`${c.operation}: ${c.name}`, c] as const))("sends %s as written", async (_n, c) => {
      const warnings = captureWarnings();
      const { http, sent: bodies, urls } = recordingClient();
      const err = await send(http, c);
      expect(err, about(c)).not.toBeInstanceOf(RequestValidationError);
      expect(bodies).toHaveLength(1);
      expect(warnings.codes()).toEqual(c.sdkWarns ?? []);
      const expected = c.sdkSends ?? c.params;
      const ep = endpointOf(c.operation);
      if (ep.query) {
        const written = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, String(v)]));
        expect(Object.fromEntries(urls[0]!.searchParams)).toEqual(written);
      }
      if (ep.body === undefined) return;
      expect(ep.page ? withoutPaging(bodies[0]) : bodies[0]).toStrictEqual(
        ep.page ? withoutPaging(expected) : expected,
      );
    });
  });
}
