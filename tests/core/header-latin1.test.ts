/**
 * Header values outside Latin-1 and a username with a colon are refused before anything is
 * sent, with a RequestValidationError naming the option and never quoting the value.
 */
import { describe, expect, it } from "vitest";
import { Inferloop, RequestValidationError } from "../../src/index.js";

const SECRET = "sk-“zq81”-key";

function recording(): { fetch: typeof fetch; sent: Request[] } {
  const sent: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(new Request(input, init));
    return Response.json({ object: "list", data: [] });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

function refusal(run: () => unknown): RequestValidationError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return err as RequestValidationError;
  }
  throw new Error("not refused");
}

describe("header values outside Latin-1", () => {
  it.each([
    ["apiKey", { apiKey: SECRET }],
    ["project", { apiKey: "k", project: "acme/bøt—2" }],
    ["defaultHeaders.x-team", { apiKey: "k", defaultHeaders: { "x-team": "équipe✓" } }],
  ])("refuses the client option %s at construction, without echoing it", (path, options) => {
    const err = refusal(() => new Inferloop({ baseURL: "http://x.test", ...options }));
    expect(err.issues[0]!.path).toBe(path);
    expect(err.message).toMatch(/Latin-1/);
    expect(err.message).not.toContain("zq81");
    expect(err.message).not.toContain("✓");
  });

  it("accepts Latin-1 values (é is Latin-1) and any text in Basic credentials, which are base64-encoded", () => {
    expect(() => new Inferloop({ baseURL: "http://x.test", apiKey: "k", project: "acme/café" })).not.toThrow();
    expect(
      () => new Inferloop({ baseURL: "http://x.test", apiKey: "k", username: "zoë✓", password: "π" }),
    ).not.toThrow();
  });

  it("refuses a per-request header and an idempotencyKey before sending, naming the option", async () => {
    const { fetch, sent } = recording();
    const client = new Inferloop({ baseURL: "http://x.test", apiKey: "k", fetch, maxRetries: 2 });
    const byHeader = await client.models.list({ headers: { "x-note": "naïve→" } }).catch((e: unknown) => e);
    expect(byHeader).toBeInstanceOf(RequestValidationError);
    expect((byHeader as RequestValidationError).issues[0]!.path).toBe("headers.x-note");
    const byKey = await client.models.list({ idempotencyKey: "key—1" }).catch((e: unknown) => e);
    expect(byKey).toBeInstanceOf(RequestValidationError);
    expect((byKey as RequestValidationError).issues[0]!.path).toBe("idempotencyKey");
    const byProject = await client.models.list({ project: "acme/bøt—2" }).catch((e: unknown) => e);
    expect((byProject as RequestValidationError).issues[0]!.path).toBe("project");
    expect(sent).toHaveLength(0);
  });
});

describe("username", () => {
  it("refuses a colon (RFC 7617: the first colon ends the user id)", () => {
    const err = refusal(() => new Inferloop({ baseURL: "http://x.test", apiKey: "k", username: "team:alice" }));
    expect(err.issues[0]!.path).toBe("username");
    expect(err.message).toMatch(/colon.*RFC 7617/);
  });
});
