/**
 * A 401 says which credential was sent (Bearer `apiKey`, or Basic `username`/`password`),
 * which option or environment variable set each part, and how to set the right one, so the user
 * knows what to fix; the values themselves never appear.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthenticationError, Inferloop } from "../../src/index.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
afterEach(() => {
  vi.unstubAllEnvs();
});

const WRONG_KEY = "sk-wrong-key-0123456789";
const WRONG_PASSWORD = "hunter2-wrong-password";
const USER = "someone@example.com";

function client(options: ConstructorParameters<typeof Inferloop>[0] = {}): Inferloop {
  return new Inferloop({ baseURL: fake.svc.url, maxRetries: 0, ...options });
}

/** The 401 of `call`, checked to carry none of `secrets` anywhere a user might print it. */
async function refused(call: () => Promise<unknown>, secrets: string[]): Promise<string> {
  const err = await caught(call);
  expect(err).toBeInstanceOf(AuthenticationError);
  const shown = [
    (err as Error).message,
    JSON.stringify(err),
    inspect(err, { depth: 10 }),
    String((err as Error).stack),
  ];
  for (const text of shown) for (const secret of secrets) expect(text).not.toContain(secret);
  return (err as Error).message;
}

const query = (c: Inferloop) => () => c.calls.query({ project_id: "acme/support-bot" }).toArray();

describe("Bearer (chat, models, training jobs)", () => {
  it("names the `apiKey` option when the key came from it", async () => {
    const message = await refused(() => client({ apiKey: WRONG_KEY }).models.list(), [WRONG_KEY]);
    expect(message).toBe(
      "401 Authentication failed (sent: Bearer `apiKey` from the `apiKey` option; to fix: pass the right key as `apiKey`)",
    );
  });

  it("names INFERLOOP_API_KEY when the key came from the environment", async () => {
    vi.stubEnv("INFERLOOP_API_KEY", WRONG_KEY);
    const message = await refused(() => client().models.list(), [WRONG_KEY]);
    expect(message).toBe(
      "401 Authentication failed (sent: Bearer `apiKey` from INFERLOOP_API_KEY; to fix: set INFERLOOP_API_KEY to the right key, or pass `apiKey` to new Inferloop({...}))",
    );
  });

  it("takes WANDB_API_KEY when INFERLOOP_API_KEY is unset, and names it", async () => {
    vi.stubEnv("INFERLOOP_API_KEY", "");
    vi.stubEnv("WANDB_API_KEY", fake.svc.apiKey);
    await client().models.list();
    expect(fake.svc.requests.at(-1)!.headers["authorization"]).toBe(`Bearer ${fake.svc.apiKey}`);
    vi.stubEnv("WANDB_API_KEY", WRONG_KEY);
    const message = await refused(() => client().models.list(), [WRONG_KEY]);
    expect(message).toBe(
      "401 Authentication failed (sent: Bearer `apiKey` from WANDB_API_KEY; to fix: set WANDB_API_KEY to the right key (INFERLOOP_API_KEY is read first), or pass `apiKey` to new Inferloop({...}))",
    );
    // The W&B key is the Basic password too (user "api"), as on W&B's trace server.
    vi.stubEnv("WANDB_API_KEY", fake.svc.password);
    await client({ username: fake.svc.username }).calls.query({ project_id: "acme/support-bot" }).toArray();
  });

  it("prefers INFERLOOP_API_KEY over WANDB_API_KEY", async () => {
    vi.stubEnv("INFERLOOP_API_KEY", fake.svc.apiKey);
    vi.stubEnv("WANDB_API_KEY", WRONG_KEY);
    await client().models.list();
    expect(fake.svc.requests.at(-1)!.headers["authorization"]).toBe(`Bearer ${fake.svc.apiKey}`);
  });

  it("says when the Authorization header was the caller's own", async () => {
    const message = await refused(
      () => client({ apiKey: fake.svc.apiKey }).models.list({ headers: { Authorization: `Bearer ${WRONG_KEY}` } }),
      [WRONG_KEY, fake.svc.apiKey],
    );
    expect(message).toBe("401 Authentication failed (sent: your own Authorization header)");
  });
});

describe("Basic (calls, annotation queues)", () => {
  it("names the username and password options", async () => {
    const message = await refused(query(client({ username: USER, password: WRONG_PASSWORD })), [
      WRONG_PASSWORD,
      USER,
      Buffer.from(`${USER}:${WRONG_PASSWORD}`).toString("base64"),
    ]);
    expect(message).toBe(
      "401 Authentication failed (sent: Basic `username` from the `username` option, `password` from the `password` option; to fix: pass the right `password`)",
    );
  });

  it("says the password was the API key when no password was set, and the default username", async () => {
    const message = await refused(query(client({ apiKey: WRONG_KEY })), [WRONG_KEY]);
    expect(message).toBe(
      '401 Authentication failed (sent: Basic `username` from the default ("api"), `password` from the API key (the `apiKey` option); to fix: the password is the API key: pass the right key as `apiKey`, or set INFERLOOP_PASSWORD)',
    );
  });

  it("names INFERLOOP_USERNAME and INFERLOOP_PASSWORD when they set them", async () => {
    vi.stubEnv("INFERLOOP_USERNAME", USER);
    vi.stubEnv("INFERLOOP_PASSWORD", WRONG_PASSWORD);
    const message = await refused(query(client()), [WRONG_PASSWORD, USER]);
    expect(message).toBe(
      "401 Authentication failed (sent: Basic `username` from INFERLOOP_USERNAME, `password` from INFERLOOP_PASSWORD; to fix: set INFERLOOP_PASSWORD to the right password, or pass `password` to new Inferloop({...}))",
    );
  });

  it("the API key from INFERLOOP_API_KEY standing in for the password is named so", async () => {
    vi.stubEnv("INFERLOOP_API_KEY", WRONG_KEY);
    const message = await refused(query(client({ username: "api" })), [WRONG_KEY]);
    expect(message).toContain(
      "`password` from the API key (INFERLOOP_API_KEY); to fix: the password is the API key: set INFERLOOP_API_KEY to the right key",
    );
  });
});
