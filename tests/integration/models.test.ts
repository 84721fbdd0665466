/** `models.list()` over real HTTP: the typed list, the Client-Project header, auth, validation. */
import { describe, expect, it } from "vitest";
import { AuthenticationError, type ModelList, RequestValidationError } from "../../src/index.js";
import { DEFAULT_MODELS } from "../../src/testing/index.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

describe("models.list", () => {
  it("returns the typed model list with Bearer auth", async () => {
    const list: ModelList = await clientFor(fake.svc).models.list();
    expect(list.object).toBe("list");
    expect(list.data.map((m) => m.id)).toEqual([...DEFAULT_MODELS]);
    for (const m of list.data) {
      expect(m.object).toBe("model");
      expect(typeof m.owned_by).toBe("string");
      expect(typeof m.created).toBe("number");
    }
    const req = fake.svc.requests[0]!;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/v1/models");
    expect(req.headers.authorization).toBe(`Bearer ${fake.svc.apiKey}`);
    expect(req.body).toBe("");
    expect(req.headers["client-project"]).toBeUndefined();
  });

  it("sends Client-Project from the client's project, and a per-call project overrides it", async () => {
    const client = clientFor(fake.svc, { project: "acme/support-bot" });
    await client.models.list();
    await client.models.list({ project: "acme/eval" });
    expect(fake.svc.requests.map((r) => r.headers["client-project"])).toEqual(["acme/support-bot", "acme/eval"]);
    // A per-call project also works on a client without one.
    await clientFor(fake.svc).models.list({ project: "team/other" });
    expect(fake.svc.requests[2]!.headers["client-project"]).toBe("team/other");
  });

  it("withResponse() gives the status and request id", async () => {
    const { data, response } = await clientFor(fake.svc).models.list().withResponse();
    expect(data.data.length).toBe(DEFAULT_MODELS.length);
    expect(response.status).toBe(200);
    expect(response.requestId).toBe(response.headers.get("x-request-id"));
  });

  it.each(["acme", "acme/", "/bot", "acme/bot/extra", "acme /bot", ""])(
    "refuses project %j with nothing sent",
    async (project) => {
      const perCall = await caught(() => clientFor(fake.svc).models.list({ project }));
      expect(perCall).toBeInstanceOf(RequestValidationError);
      expect((perCall as RequestValidationError).issues[0]!.path).toBe("project");
      const fromClient = await caught(() => clientFor(fake.svc, { project }).models.list());
      expect(fromClient).toBeInstanceOf(RequestValidationError);
      expect(fake.svc.requests).toHaveLength(0);
    },
  );

  it("a valid per-call project rescues a client whose project is invalid", async () => {
    await clientFor(fake.svc, { project: "not-a-project" }).models.list({ project: "acme/ok" });
    expect(fake.svc.requests[0]!.headers["client-project"]).toBe("acme/ok");
  });

  it("a wrong API key gives AuthenticationError without leaking the key", async () => {
    const err = await caught(() => clientFor(fake.svc, { apiKey: "sk-wrong-secret-123" }).models.list());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).status).toBe(401);
    expect((err as Error).message).not.toContain("sk-wrong-secret-123");
    expect(JSON.stringify(err)).not.toContain("sk-wrong-secret-123");
  });
});
