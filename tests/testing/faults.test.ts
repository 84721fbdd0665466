import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { faults, startFakeService } from "../../src/testing/index.js";
import { bearer, chat, queryCalls, sseData } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterEach(() => svc.reset());
afterAll(() => svc.close());

const models = () => fetch(`${svc.url}/v1/models`, { headers: bearer(svc) });
const streamChat = () => chat(svc, { messages: [{ role: "user", content: "echo a b c d e" }], stream: true });

async function readAll(res: Response): Promise<{ bytes: Uint8Array; error: unknown }> {
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    return { bytes: Buffer.concat(parts), error: undefined };
  } catch (error) {
    return { bytes: Buffer.concat(parts), error };
  }
}

describe("status faults", () => {
  it("429 with retry-after seconds, for `times` requests, then normal service", async () => {
    svc.inject(faults.rateLimited({ retryAfter: 1, times: 2 }));
    for (let i = 0; i < 2; i++) {
      const res = await models();
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(429);
    }
    expect((await models()).status).toBe(200);
    expect(svc.state.faults.pending()).toEqual([]);
  });

  it("429 with retry-after as an HTTP date and with retry-after-ms", async () => {
    const when = new Date(Date.UTC(2030, 0, 1));
    svc.inject(faults.rateLimited({ retryAfter: when }));
    expect((await models()).headers.get("retry-after")).toBe("Tue, 01 Jan 2030 00:00:00 GMT");
    svc.inject(faults.rateLimited({ retryAfterMs: 20 }));
    expect((await models()).headers.get("retry-after-ms")).toBe("20");
  });

  it("a 503 burst, then success", async () => {
    svc.inject(faults.serviceUnavailable({ times: 3 }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await models()).status);
    expect(statuses).toEqual([503, 503, 503, 200]);
  });

  it("502 with an HTML proxy page", async () => {
    svc.inject(faults.badGatewayHtml());
    const res = await models();
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("<h1>502 Bad Gateway</h1>");
  });

  it("matches method and path, and preflights never consume a fault", async () => {
    svc.inject(faults.status(500, { path: "/v1/chat/completions", method: "POST" }));
    expect((await models()).status).toBe(200);
    const preflight = await fetch(`${svc.url}/v1/chat/completions`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    const res = await chat(svc, { messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { message: "Injected fault: HTTP 500", type: "InternalServerError", param: null, code: 500 },
    });
  });

  it("uses the trace server's envelope by default on trace routes, and accepts regex paths", async () => {
    svc.inject(faults.status(504, { path: /^\/calls\// }));
    const res = await queryCalls(svc, { project_id: "acme/support-bot" });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ reason: "Injected fault: HTTP 504" });
  });

  it("faults given as an option apply from the start and again after reset()", async () => {
    const other = await startFakeService({ faults: [faults.serviceUnavailable()] });
    try {
      expect((await fetch(`${other.url}/v1/models`, { headers: bearer(other) })).status).toBe(503);
      expect((await fetch(`${other.url}/v1/models`, { headers: bearer(other) })).status).toBe(200);
      other.reset();
      expect((await fetch(`${other.url}/v1/models`, { headers: bearer(other) })).status).toBe(503);
    } finally {
      await other.close();
    }
  });
});

describe("connection faults", () => {
  it("reset before headers makes fetch fail", async () => {
    svc.inject(faults.reset());
    await expect(models()).rejects.toThrow();
    expect((await models()).status).toBe(200);
  });

  it("reset after N bytes delivers exactly those bytes, then the body errors", async () => {
    const full = new Uint8Array(await (await models()).arrayBuffer());
    svc.inject(faults.reset({ afterBytes: 40 }));
    const res = await models();
    expect(res.status).toBe(200);
    const { bytes, error } = await readAll(res);
    expect(error).toBeDefined();
    expect(Buffer.from(bytes).equals(Buffer.from(full.subarray(0, 40)))).toBe(true);
  });

  it("reset after K stream chunks", async () => {
    svc.inject(faults.reset({ afterChunks: 3 }));
    const { bytes, error } = await readAll(await streamChat());
    expect(error).toBeDefined();
    expect(sseData(Buffer.from(bytes).toString())).toHaveLength(3);
  });

  it("stall before headers then carry on after ms", async () => {
    svc.inject(faults.stall({ ms: 30 }));
    const res = await models();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe("list");
  });

  it("stall mid-stream for ms, then the stream completes", async () => {
    svc.inject(faults.stall({ afterChunks: 2, ms: 30 }));
    const data = sseData(await (await streamChat()).text());
    expect(data.at(-1)).toBe("[DONE]");
  });

  it("a stall without ms holds the socket until the service closes, delivering what came before", async () => {
    const own = await startFakeService({ faults: [faults.stall({ afterChunks: 2 })] });
    const res = await chat(own, { messages: [{ role: "user", content: "echo a b c" }], stream: true });
    const reader = res.body!.getReader();
    let text = "";
    while (text.split("\n\n").length < 3) text += new TextDecoder().decode((await reader.read()).value);
    expect(sseData(text)).toHaveLength(2);
    const pending = reader.read();
    await own.close();
    await expect(pending).rejects.toThrow();
  });

  it("a stall before headers is released by close(), failing the request", async () => {
    const own = await startFakeService({ faults: [faults.stall()] });
    const request = fetch(`${own.url}/v1/models`, { headers: bearer(own) });
    while (own.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await own.close();
    await expect(request).rejects.toThrow();
  });

  it("the client giving up on a stall does not break the service", async () => {
    svc.inject(faults.stall());
    const controller = new AbortController();
    const request = fetch(`${svc.url}/v1/models`, { headers: bearer(svc), signal: controller.signal });
    while (svc.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(request).rejects.toThrow();
    expect((await models()).status).toBe(200);
  });
});

describe("body faults", () => {
  it("cutStream ends the stream cleanly after K chunks without [DONE]", async () => {
    svc.inject(faults.cutStream(3));
    const res = await streamChat();
    const data = sseData(await res.text());
    expect(data).toHaveLength(3);
    expect(data).not.toContain("[DONE]");
  });

  it("a malformed SSE data line in the middle, the stream continuing after it", async () => {
    svc.inject(faults.malformedSseLine({ afterChunks: 2 }));
    const data = sseData(await (await streamChat()).text());
    expect(() => JSON.parse(data[2]!)).toThrow();
    expect(JSON.parse(data[1]!)).toHaveProperty("choices");
    expect(JSON.parse(data[3]!)).toHaveProperty("choices");
    expect(data.at(-1)).toBe("[DONE]");
  });

  it("an in-stream error event followed by [DONE]", async () => {
    svc.inject(faults.streamError({ afterChunks: 2 }));
    const res = await streamChat();
    expect(res.status).toBe(200);
    const data = sseData(await res.text());
    expect(data).toHaveLength(4);
    expect(JSON.parse(data[2]!)).toEqual({
      error: { message: "Internal server error", type: "InternalServerError", param: null, code: 500 },
    });
    expect(data[3]).toBe("[DONE]");
  });

  it("a malformed JSONL line in the middle of a call query", async () => {
    svc.inject(faults.malformedJsonlLine({ afterLines: 2 }));
    const text = await (await queryCalls(svc, { project_id: "acme/support-bot", limit: 4 })).text();
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(() => JSON.parse(lines[2]!)).toThrow();
    expect(JSON.parse(lines[3]!)).toHaveProperty("id");
  });

  it("invalid UTF-8 bytes in a JSON body and in a JSONL line", async () => {
    svc.inject(faults.invalidUtf8({ path: "/v1/models" }));
    const bytes = new Uint8Array(await (await models()).arrayBuffer());
    expect([...bytes]).toContain(0xff);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    svc.inject(faults.invalidUtf8({ format: "jsonl", afterChunks: 1 }));
    const jsonl = new Uint8Array(
      await (await queryCalls(svc, { project_id: "acme/support-bot", limit: 2 })).arrayBuffer(),
    );
    expect([...jsonl]).toContain(0xfe);
  });

  it("a 10 MB line", async () => {
    svc.inject(faults.hugeLine({ format: "jsonl", afterChunks: 1 }));
    const text = await (await queryCalls(svc, { project_id: "acme/support-bot", limit: 2 })).text();
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]!.length).toBeGreaterThanOrEqual(10 * 1024 * 1024 - 64);
    expect((JSON.parse(lines[1]!) as { id: string }).id).toBe("huge-line");
  });

  it("a raw body override with malformed JSON", async () => {
    svc.inject(faults.malformedJson());
    const res = await models();
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it("latency faults and the latencyMs option still give a normal response", async () => {
    svc.inject(faults.latency(20));
    expect((await models()).status).toBe(200);
    const slow = await startFakeService({ latencyMs: 10 });
    try {
      expect((await fetch(`${slow.url}/v1/models`, { headers: bearer(slow) })).status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});
