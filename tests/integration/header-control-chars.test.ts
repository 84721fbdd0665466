/**
 * Header values holding control characters (NUL, CR, LF, DEL and the rest of C0 but the tab)
 * are refused before sending, naming the option and never echoing the value, and are not
 * retried: undici would refuse them with a bare "invalid argument" that surfaced as an
 * `APIConnectionError` after a retry.
 */
import { describe, expect, it } from "vitest";
import { APIConnectionError, RequestValidationError } from "../../src/index.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const fake = useFakeService({});

const CONTROLS: Array<[string, string]> = [
  ["NUL", "\u0000"],
  ["CR", "\r"],
  ["LF", "\n"],
  ["DEL", "\u007f"],
  ["BEL", "\u0007"],
  ["ESC", "\u001b"],
  ["US", "\u001f"],
];
const SECRET = "zq81secret";

function refusedAtConstruction(options: Record<string, unknown>): RequestValidationError {
  try {
    clientFor(fake.svc, options);
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return err as RequestValidationError;
  }
  throw new Error("not refused");
}

describe("control characters in header values", () => {
  for (const [name, ch] of CONTROLS) {
    it.each([
      ["project", { project: `acme/bot${ch}${SECRET}` }],
      ["apiKey", { apiKey: `${SECRET}${ch}` }],
      ["username", { username: `al${ch}${SECRET}` }],
      ["password", { password: `${SECRET}${ch}x` }],
      ["defaultHeaders.x-team", { defaultHeaders: { "x-team": `${SECRET}${ch}` } }],
    ])(`refuses ${name} in the client option %s, naming it without echoing the value`, (path, options) => {
      const err = refusedAtConstruction(options);
      expect(err.issues[0]!.path).toBe(path);
      expect(err.message).toMatch(/control character/);
      expect(err.message).not.toContain(SECRET);
    });
  }

  it.each(CONTROLS)(
    "refuses %s in per-request headers, idempotencyKey and project: nothing sent, no retry",
    async (_n, ch) => {
      const client = clientFor(fake.svc, { maxRetries: 3 });
      const before = fake.svc.requests.length;
      const cases: Array<[string, () => Promise<unknown>]> = [
        ["headers.x-note", () => client.models.list({ headers: { "x-note": `${SECRET}${ch}` } })],
        ["idempotencyKey", () => client.models.list({ idempotencyKey: `key${ch}${SECRET}` })],
        ["project", () => client.models.list({ project: `acme/bot${ch}${SECRET}` })],
      ];
      for (const [path, run] of cases) {
        const err = await caught(run);
        expect(err, path).toBeInstanceOf(RequestValidationError);
        expect(err).not.toBeInstanceOf(APIConnectionError);
        expect((err as RequestValidationError).issues[0]!.path).toBe(path);
        expect((err as Error).message).not.toContain(SECRET);
      }
      expect(fake.svc.requests.length).toBe(before);
    },
  );

  it("still sends a tab, which a header value may hold", async () => {
    const client = clientFor(fake.svc);
    await client.models.list({ headers: { "x-note": "a\tb" } });
    expect(fake.svc.requests.at(-1)!.headers["x-note"]).toBe("a\tb");
  });
});
