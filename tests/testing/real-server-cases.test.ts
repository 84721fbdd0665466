/**
 * The shared case table against the fake service over real HTTP: the fake accepts what the real
 * server accepts and refuses what it refuses, with its status and error envelope (vLLM's
 * `{"error":{message,type,param,code}}` 400, Weave's FastAPI 422 `{"detail":[...]}`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeService, SEED_PROJECT_ID, startFakeService } from "../../src/testing/index.js";
import { REAL_SERVER_CASES, type RealServerCase } from "../cases/real-server-cases.js";
import { chat, queryCalls } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());

function post(c: RealServerCase): Promise<Response> {
  return c.operation === "chat" ? chat(svc, c.request) : queryCalls(svc, { project_id: SEED_PROJECT_ID, ...c.request });
}

const accepted = REAL_SERVER_CASES.filter((c) => c.real === "accepted" || c.fakeAccepts);
const refused = REAL_SERVER_CASES.filter((c) => c.real === "refused" && !c.fakeAccepts);

describe("the real-server case table against the fake service", () => {
  it.each(accepted.map((c) => [`${c.operation}: ${c.name}`, c] as const))("accepts %s", async (_name, c) => {
    const res = await post(c);
    const body = await res.text();
    expect(res.status, `${c.why}\n${body}`).toBe(200);
  });

  it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
    "refuses %s in the real server's envelope",
    async (_name, c) => {
      const res = await post(c);
      const body = (await res.json()) as Record<string, any>;
      if (c.operation === "chat") {
        expect(res.status, c.why).toBe(400);
        expect(body.error).toMatchObject({ type: "BadRequestError", code: 400 });
        expect(typeof body.error.message).toBe("string");
        expect("param" in body.error).toBe(true);
      } else {
        expect(res.status, c.why).toBe(422);
        expect(Array.isArray(body.detail)).toBe(true);
        for (const d of body.detail) expect(d).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
      }
    },
  );
});
