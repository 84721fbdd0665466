/**
 * The shared case table against the SDK's validation: what a real server refuses is refused
 * before sending (RequestValidationError, nothing sent); what it accepts is sent as written.
 * A recording `fetch` stands in for the network.
 */
import { describe, expect, it } from "vitest";
import { Inferloop, RequestValidationError } from "../../src/index.js";
import { REAL_SERVER_CASES, type RealServerCase } from "../cases/real-server-cases.js";
import { catchWarningsOfEachTest } from "../warnings.js";

// The cases with the spec's svc_* filter names make the SDK warn that Weave ignores them.
catchWarningsOfEachTest(["INFERLOOP_SVC_USER_IDS", "INFERLOOP_SVC_RUN_IDS", "INFERLOOP_BARE_OP_NAME"]);

const COMPLETION = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const SSE =
  'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}\n\ndata: [DONE]\n\n';

function recordingClient(): { client: Inferloop; sent: unknown[] } {
  const sent: unknown[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(JSON.parse(String(init?.body)));
    if (String(url).endsWith("/calls/stream_query")) return new Response("", { status: 200 });
    const streamed = (init?.headers as Record<string, string> | undefined)?.accept === "text/event-stream";
    return streamed
      ? new Response(SSE, { status: 200, headers: { "content-type": "text/event-stream" } })
      : Response.json(COMPLETION);
  };
  const client = new Inferloop({ baseURL: "http://inference.test", apiKey: "k", fetch, maxRetries: 0 });
  return { client, sent };
}

const PROJECT = "acme/bot";

async function send(client: Inferloop, c: RealServerCase): Promise<void> {
  if (c.operation === "chat") {
    const result = await client.chat.completions.create(c.request as never);
    if (result && typeof result === "object" && Symbol.asyncIterator in result)
      for await (const _ of result as AsyncIterable<unknown>);
    return;
  }
  await client.calls.query({ project_id: PROJECT, ...c.request } as never).toArray();
}

// What the SDK adds to a call query body on its own: the page window.
function withoutPaging(body: unknown): unknown {
  const { limit: _l, offset: _o, ...rest } = body as Record<string, unknown>;
  return rest;
}

describe("the real-server case table against the SDK's validation", () => {
  it("holds accepted and refused cases of both operations", () => {
    for (const op of ["chat", "calls"] as const)
      for (const real of ["accepted", "refused"] as const)
        expect(REAL_SERVER_CASES.filter((c) => c.operation === op && c.real === real).length).toBeGreaterThan(3);
  });

  const refused = REAL_SERVER_CASES.filter(
    (c) => (c.real === "refused" && !c.dependsOnServer && !c.sdkSends) || c.sdkRefuses,
  );
  it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
    "refuses %s before sending",
    async (_name, c) => {
      const { client, sent } = recordingClient();
      const err = await send(client, c).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, c.why).toBeInstanceOf(RequestValidationError);
      expect((err as Error).message).toMatch(/Nothing was sent/);
      // Each refusal names the field it is about.
      for (const issue of (err as RequestValidationError).issues) expect(issue.path, c.name).not.toBe("");
      expect(sent).toHaveLength(0);
    },
  );

  const sentCases = REAL_SERVER_CASES.filter(
    (c) => (c.real === "accepted" || c.dependsOnServer || c.sdkSends) && !c.sdkRefuses,
  );
  it.each(sentCases.map((c) => [`${c.operation}: ${c.name}`, c] as const))("sends %s as written", async (_name, c) => {
    const { client, sent } = recordingClient();
    await send(client, c);
    expect(sent).toHaveLength(1);
    if (c.operation === "chat") expect(sent[0]).toStrictEqual(c.sdkSends ?? c.request);
    else expect(withoutPaging(sent[0])).toStrictEqual({ project_id: PROJECT, ...c.request });
  });
});
