/**
 * Every request-case table (`tests/cases/request-case.ts`) against the SDK's validation, through
 * the endpoint each row names: a refused row rejects with `RequestValidationError` naming its
 * field and sends nothing; a sent row goes out as written. A recording `fetch` stands in for the
 * network and answers 500, so a call ends right after its request is seen.
 */
import { describe, expect, it } from "vitest";
import { callEndpoint } from "../../src/core/pipeline/endpoint.js";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { Inferloop, RequestValidationError } from "../../src/index.js";
import { type RequestCase, requestCaseTables } from "../cases/request-case.js";
import { endpointOf } from "../endpoints.js";

function recordingClient(): { http: HttpClient; sent: unknown[] } {
  const sent: unknown[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(init?.body === undefined ? undefined : JSON.parse(String(init.body)));
    return Response.json({ detail: "recorded" }, { status: 500 });
  };
  const client = new Inferloop({ baseURL: "http://server.test", apiKey: "k", fetch, maxRetries: 0 });
  return { http: (client.models as unknown as { _http: HttpClient })._http, sent };
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

for (const [table, cases] of await requestCaseTables()) {
  describe(`${table} against the SDK`, () => {
    const refused = cases.filter((c) => c.sdk !== "sends");
    const sent = cases.filter((c) => c.sdk === "sends");

    it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
      "refuses %s before sending",
      async (_n, c) => {
        const { http, sent: bodies } = recordingClient();
        const err = await send(http, c);
        expect(err, c.source).toBeInstanceOf(RequestValidationError);
        expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(
          (c.sdk as { refuses: string }).refuses,
        );
        expect(bodies).toEqual([]);
      },
    );

    it.each(sent.map((c) => [`${c.operation}: ${c.name}`, c] as const))("sends %s as written", async (_n, c) => {
      const { http, sent: bodies } = recordingClient();
      const err = await send(http, c);
      expect(err, c.source).not.toBeInstanceOf(RequestValidationError);
      expect(bodies).toHaveLength(1);
      const expected = c.sdkSends ?? c.params;
      const ep = endpointOf(c.operation);
      if (ep.body === undefined) return;
      expect(ep.page ? withoutPaging(bodies[0]) : bodies[0]).toStrictEqual(
        ep.page ? withoutPaging(expected) : expected,
      );
    });
  });
}
