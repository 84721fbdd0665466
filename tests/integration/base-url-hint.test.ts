// A base URL ending in /v1 (the openai habit) doubles the version segment: the 404 names the fix.
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/index.js";
import { caught, clientFor, MODEL, useFakeService } from "./helpers.js";

const V1_HINT = "inferloop adds /v1 itself; set baseURL to the service root";

describe("a baseURL ending in /v1", () => {
  const fake = useFakeService();

  it("turns the 404 of /v1/v1/models into a message that names the likely fix", async () => {
    const client = clientFor(fake.svc, { baseURL: `${fake.svc.url}/v1/` });
    const err = await caught(() => client.models.list());
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain("/v1/v1/models");
    expect((err as Error).message).toContain(V1_HINT);
    expect(fake.svc.requests.map((r) => r.path)).toEqual(["/v1/v1/models"]);
  });

  it("gives the hint for chat completions too", async () => {
    const client = clientFor(fake.svc, { baseURL: `${fake.svc.url}/v1` });
    const err = await caught(() =>
      client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain(V1_HINT);
  });

  it("a 404 with a root baseURL (an unknown model) carries no such hint", async () => {
    const client = clientFor(fake.svc);
    const err = await caught(() =>
      client.chat.completions.create({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).not.toContain("/v1 itself");
  });
});
