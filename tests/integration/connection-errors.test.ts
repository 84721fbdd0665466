// A connection error names what could not be reached (scheme, host and port of the base URL,
// never its path, query string or credentials) and the cause, on both transports, over real
// sockets: a closed loopback port and the fake service dropping the connection.
import { describe, expect, it } from "vitest";
import { APIConnectionError, type ClientOptions, Inferloop } from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, closedPort, MODEL, useFakeService } from "./helpers.js";

const transports: Array<[string, ClientOptions]> = [
  ["undici (default)", {}],
  ["fetch", { fetch: (url, init) => globalThis.fetch(url, init) }],
];

const chat = { model: MODEL, messages: [{ role: "user" as const, content: "echo hi" }] };

describe.each(transports)("connection errors over %s", (_name, transport) => {
  it("a refused connection names scheme, host and port, and the cause, nothing more", async () => {
    const port = await closedPort();
    const client = new Inferloop({
      baseURL: `http://127.0.0.1:${port}/gateway/team-secret-path?token=query-secret`,
      apiKey: "sk-connection-test",
      maxRetries: 0,
      ...transport,
    });
    const err = await caught(() => client.models.list());
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toBe(`Could not connect to http://127.0.0.1:${port} (ECONNREFUSED).`);
  });

  const fake = useFakeService({}, transport);

  it("a connection dropped before the response says so, and where", async () => {
    fake.svc.inject(faults.reset());
    const err = await caught(() => fake.client.chat.completions.create(chat));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(
      new RegExp(`^Connection to ${fake.svc.url.replaceAll(".", "\\.")} failed before a response( \\(\\w+\\))?\\.$`),
    );
  });

  it("a connection dropped mid-stream says it was lost mid-response, and where", async () => {
    fake.svc.inject(faults.reset({ afterChunks: 2 }));
    const stream = await fake.client.chat.completions.create({ ...chat, stream: true });
    const err = await caught(async () => {
      for await (const _ of stream) {
        // read until the connection drops
      }
    });
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(
      new RegExp(`^Connection to ${fake.svc.url.replaceAll(".", "\\.")} lost mid-response`),
    );
  });
});
