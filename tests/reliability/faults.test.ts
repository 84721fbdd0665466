/**
 * Fault suite: every operation against every fault of the fake service, over loopback, with the
 * default (undici) transport. The expectations come from `fault-table.ts`, the same data that
 * `docs/reliability.md` is generated from.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type APIError,
  InferloopError,
  type RateLimitError,
  ResponseParseError,
  type UnprocessableEntityError,
} from "../../src/index.js";
import { type FakeService, type Fault, faults, startFakeService } from "../../src/testing/index.js";
import { type Expected, FAULTS, type FaultId, OPERATIONS, type OperationId, TABLE } from "./fault-table.js";
import {
  clientFor,
  deadPort,
  guardProcess,
  PATHS,
  REPLACED,
  type RunResult,
  runOperation,
  settle,
  TEN_MB_TEXT,
  trainingJob,
  within,
} from "./harness.js";
import { renderFaultTable } from "./render-table.js";

guardProcess();

const CELL_BOUND_MS = 15_000;
const STALL_MS = 400;

function hugeFault(op: OperationId): Fault {
  const path = PATHS[op];
  switch (op) {
    case "chat":
      return faults.body(
        JSON.stringify({
          id: "chatcmpl-huge",
          object: "chat.completion",
          created: 0,
          model: "m",
          choices: [
            { index: 0, message: { role: "assistant", content: TEN_MB_TEXT }, finish_reason: "stop", logprobs: null },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
        { path },
      );
    case "chatStream": {
      const chunk = {
        id: "chatcmpl-huge",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{ index: 0, delta: { content: TEN_MB_TEXT }, finish_reason: null }],
      };
      return faults.insert(1, `data: ${JSON.stringify(chunk)}\n\n`, { path });
    }
    case "calls":
      return faults.insert(1, `${JSON.stringify({ id: "huge-record", text: TEN_MB_TEXT })}\n`, { path });
    case "models":
      return faults.body(
        JSON.stringify({
          object: "list",
          data: [{ id: "huge", object: "model", created: 0, owned_by: "x", root: TEN_MB_TEXT }],
        }),
        { path },
      );
    case "progress":
      return faults.body(JSON.stringify({ item: { id: "huge", text: TEN_MB_TEXT } }), { path });
    case "jobs":
    case "jobsKey":
      return faults.body(JSON.stringify({ id: "job-huge", text: TEN_MB_TEXT }), { path });
  }
}

/** The members a JSON reply of each operation must have to be read at all; the invalid-UTF-8
 * bodies carry them beside their `text`. */
const JSON_SHAPES: Partial<Record<OperationId, Record<string, unknown>>> = {
  chat: { id: "chatcmpl-bad", object: "chat.completion", created: 0, model: "m", choices: [] },
  models: { object: "list", data: [] },
  progress: { item: { id: "bad-bytes" } },
  jobs: { id: "job-bad-bytes" },
  jobsKey: { id: "job-bad-bytes" },
};

function inject(svc: FakeService, fault: FaultId, op: OperationId): void {
  const path = PATHS[op];
  const streamed = op === "chatStream" || op === "calls";
  const add = (...fs: Fault[]) => fs.forEach((f) => svc.inject(f));
  switch (fault) {
    case "refused":
      return;
    case "resetBeforeHeaders":
      return add(faults.reset({ path }));
    case "resetMidBody":
      return add(faults.reset({ path, afterBytes: 10 }));
    case "resetMidStream":
      return add(faults.reset({ path, afterChunks: 2 }));
    case "stallBeforeHeaders":
      return add(faults.stall({ path }));
    case "stallMidBody":
      return add(faults.stall(streamed ? { path, afterChunks: 2 } : { path, afterBytes: 10 }));
    case "rateLimitSeconds":
      return add(faults.rateLimited({ path, retryAfter: 1 }));
    case "rateLimitDate":
      return add(faults.rateLimited({ path, retryAfter: new Date(Date.now() + 1000) }));
    case "rateLimitMs":
      return add(faults.rateLimited({ path, retryAfterMs: 50 }));
    case "burst5xx":
      return add(faults.status(500, { path }), faults.serviceUnavailable({ path }));
    case "malformedJson":
      return add(faults.malformedJson({ path }));
    case "malformedSse":
      return add(faults.malformedSseLine({ path, afterChunks: 1 }));
    case "malformedJsonl":
      return add(faults.malformedJsonlLine({ path, afterLines: 1 }));
    case "noDone":
      return add(faults.cutStream(2, { path }));
    case "hugeLine":
      return add(hugeFault(op));
    case "invalidUtf8":
      return add(
        op === "chatStream"
          ? faults.invalidUtf8({ path, format: "sse", afterChunks: 1 })
          : op === "calls"
            ? faults.invalidUtf8({ path, format: "jsonl", afterChunks: 1 })
            : faults.invalidUtf8({ path, members: JSON_SHAPES[op] }),
      );
    case "htmlBadGateway":
      return add(faults.badGatewayHtml({ path }));
    case "nullBody":
      return add(
        op === "chatStream"
          ? faults.oddChunk(null, { path, afterChunks: 1 })
          : op === "calls"
            ? faults.insert(1, "null\n", { path })
            : faults.oddJson(null, { path }),
      );
    case "deepErrorBody":
      return add(faults.deepErrorBody({ path }));
    case "protoErrorBody":
      return add(faults.protoErrorBody({ path }));
    case "retryAfterNotDigits":
      return add(faults.status(429, { path, headers: { "retry-after": "0x10" } }));
    case "ignoresLimit":
      return add(faults.ignoresLimit({ path }));
    case "keepAliveOnly":
      return add(faults.keepAliveOnly({ path, everyMs: 50, ...(op === "calls" ? { data: "\n" } : {}) }));
    case "endlessValue":
      return add(
        streamed
          ? faults.endlessValue({ path, format: op === "calls" ? "jsonl" : "sse" })
          : faults.body(endlessBody('{"pad": "'), { path }),
      );
    case "compressed":
      return add(faults.compressed("gzip", { path }));
    case "compressionBomb":
      return add(
        faults.compressionBomb({
          path,
          prefix: op === "chatStream" ? "data: " : "{",
          contentType: op === "chatStream" ? "text/event-stream" : "application/json",
        }),
      );
    case "redirect":
      return add(faults.redirect(`http://127.0.0.1:9${path}?token=t0p-secret`, { path, times: Infinity }));
    case "slowConsumerFetch":
      return;
    case "stallDeafFetch":
      return add(faults.stall(streamed ? { path, afterChunks: 2 } : { path, afterBytes: 10 }));
    case "endlessErrorBody":
      return add(
        faults.body(endlessBody("<html><head><title>503 Service Unavailable</title></head><body>"), {
          path,
          status: 503,
          headers: { "content-type": "text/html" },
        }),
      );
  }
}

/** A body that starts with `head` and never ends (the service stops when the client leaves). */
function endlessBody(head: string): () => Iterable<string> {
  return function* () {
    yield head;
    for (;;) yield "z".repeat(64 * 1024);
  };
}

/** The client options a fault's cell runs with. */
function cellOptions(fault: FaultId) {
  switch (fault) {
    case "stallBeforeHeaders":
      return { timeout: STALL_MS };
    case "stallMidBody":
      return { idleTimeout: STALL_MS };
    case "keepAliveOnly":
      return { eventTimeout: STALL_MS };
    case "slowConsumerFetch":
      return { idleTimeout: STALL_MS, fetch: (url: string, init: RequestInit) => fetch(url, init) };
    case "stallDeafFetch":
      return {
        idleTimeout: STALL_MS,
        fetch: (url: string, init: RequestInit) => fetch(url, { ...init, signal: null }),
      };
    case "endlessValue":
    case "compressionBomb":
      return { maxBufferBytes: 1024 * 1024 };
    default:
      return {};
  }
}

interface Cell {
  fault: FaultId;
  op: OperationId;
  sink: RunResult;
  error: unknown;
  elapsed: number;
  baseline: RunResult | undefined;
}

/** The one string a result carries for the huge-line and UTF-8 checks. */
function payloadText(c: Cell): string | undefined {
  const v = c.sink.value as Record<string, any> | undefined;
  switch (c.op) {
    case "chat":
      return c.fault === "invalidUtf8" ? v?.text : c.sink.text;
    case "chatStream":
      return c.sink.chunks?.find((k) => k.id === "chatcmpl-huge")?.choices[0]?.delta.content ?? undefined;
    case "calls":
      return c.sink.records?.find((r) => r.id === "huge-record" || r.id === "bad-bytes")?.text as string | undefined;
    case "models":
      return c.fault === "invalidUtf8" ? v?.text : v?.data?.[0]?.root;
    case "progress":
      return c.fault === "invalidUtf8" ? v?.text : v?.item?.text;
    case "jobs":
    case "jobsKey":
      return v?.text;
  }
}

const ids = (r: RunResult | undefined) => r?.records?.map((x) => x.id);

/** Checks beyond "ok / which error / how many tries", per fault. */
function verify(c: Cell, exp: Exclude<Expected, { na: string }>): void {
  const err = c.error as Error & { line?: number; retryAfter?: number };
  switch (c.fault) {
    case "resetMidBody":
    case "resetMidStream":
    case "stallMidBody":
    case "stallDeafFetch":
    case "resetBeforeHeaders":
    case "stallBeforeHeaders":
      if (c.op === "calls") expect(ids(c.sink)).toEqual(ids(c.baseline));
      if (c.op === "chatStream" && "error" in exp && c.fault !== "resetMidBody")
        expect(c.sink.chunks!.length).toBeGreaterThan(0);
      break;
    case "rateLimitSeconds":
      if ("ok" in exp) expect(c.elapsed).toBeGreaterThanOrEqual(900);
      else expect((err as RateLimitError).retryAfter).toBe(1000);
      break;
    case "rateLimitDate":
      if ("error" in exp) {
        expect((err as RateLimitError).retryAfter).toBeGreaterThanOrEqual(0);
        expect((err as RateLimitError).retryAfter).toBeLessThanOrEqual(1000);
      }
      break;
    case "rateLimitMs":
      if ("ok" in exp) expect(c.elapsed).toBeGreaterThanOrEqual(45);
      else expect((err as RateLimitError).retryAfter).toBe(50);
      break;
    case "malformedJson":
      expect(err.message).not.toContain("broken");
      if (c.op === "calls") expect(err.line).toBe(1);
      break;
    case "malformedSse":
      expect(err.line).toBe(2);
      expect(err.message).not.toContain("chatcmpl-broken");
      expect(c.sink.chunks).toHaveLength(1);
      break;
    case "malformedJsonl":
      expect(err.line).toBe(2);
      expect(err.message).not.toContain("broken-line");
      expect(c.sink.records).toHaveLength(1);
      break;
    case "noDone":
      if (c.op === "chatStream") expect(c.sink.chunks).toHaveLength(2);
      if (c.op === "calls") expect(c.sink.records).toHaveLength(2);
      break;
    case "hugeLine": {
      const text = payloadText(c);
      expect(text?.length).toBe(TEN_MB_TEXT.length);
      expect(text === TEN_MB_TEXT).toBe(true); // not toBe: a failure would print 10 MB
      break;
    }
    case "invalidUtf8":
      if (c.op === "chatStream") expect(c.sink.text).toContain(REPLACED);
      else expect(payloadText(c)).toBe(REPLACED);
      break;
    case "htmlBadGateway":
      if ("error" in exp) {
        expect((err as APIError).status).toBe(502);
        expect(err.message).toMatch(/^502 Bad Gateway \(an HTML error page/);
        expect(err.message).not.toMatch(/<center>|<hr>|<body>/);
      }
      break;
    case "nullBody":
      expect(err.message).toMatch(/is null, expected an object/);
      if (c.op === "chatStream") expect(c.sink.chunks).toHaveLength(1);
      if (c.op === "calls") expect(c.sink.records).toHaveLength(1);
      break;
    case "deepErrorBody":
      if ("error" in exp) {
        expect((err as APIError).status).toBe(500);
        expect(err.message).toMatch(/^500 (nested 50000 deep|\{"error":\{"message":"nested 50000 deep")/);
      }
      break;
    case "protoErrorBody": {
      const e = err as UnprocessableEntityError;
      const body = e.body as Record<string, unknown>;
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(body.error)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(e.detail[0])).toBe(Object.prototype);
      break;
    }
    case "retryAfterNotDigits":
      if ("error" in exp) expect((err as RateLimitError).retryAfter).toBeUndefined();
      break;
    case "ignoresLimit":
      expect(ids(c.sink)).toEqual(["ignored-0", "ignored-1", "ignored-2", "ignored-3", "ignored-4"]);
      break;
    case "keepAliveOnly":
      if (c.op === "chatStream") {
        expect(err.message).toContain("eventTimeout");
        expect(c.sink.chunks).toHaveLength(1);
      }
      if (c.op === "calls") expect(ids(c.sink)).toEqual(ids(c.baseline));
      break;
    case "endlessValue":
    case "compressionBomb":
      expect(err.message).toContain("maxBufferBytes");
      if (c.fault === "endlessValue" && c.op === "chatStream") expect(c.sink.chunks).toHaveLength(1);
      if (c.fault === "endlessValue" && c.op === "calls") expect(c.sink.records).toHaveLength(1);
      break;
    case "compressed":
      if (c.op === "calls") expect(ids(c.sink)).toEqual(ids(c.baseline));
      if (c.op === "chat" || c.op === "chatStream") expect(c.sink.text).toBeTruthy();
      break;
    case "redirect":
      expect((err as APIError).status).toBe(307);
      expect(err.message).toContain("http://127.0.0.1:9");
      expect(err.message).toContain("`baseURL`");
      expect(err.message).not.toContain("t0p-secret");
      break;
    case "slowConsumerFetch":
      if (c.op === "calls") expect(ids(c.sink)).toEqual(ids(c.baseline));
      else expect(c.sink.text).toBeTruthy();
      break;
    case "refused":
    case "burst5xx":
    case "endlessErrorBody":
      break;
  }
}

function describeExpected(e: Expected): string {
  if ("na" in e) return "n/a";
  return `${"ok" in e ? "ok" : e.error}, ${e.tries} tries${e.jobs === undefined ? "" : `, ${e.jobs} jobs`}`;
}

describe.concurrent("fault × operation (table-driven)", () => {
  for (const fault of FAULTS) {
    for (const op of OPERATIONS) {
      const exp = TABLE[fault.id][op.id];
      if ("na" in exp) continue;
      it(`${fault.label} × ${op.label} → ${describeExpected(exp)}`, async () => {
        const svc = fault.id === "refused" ? undefined : await startFakeService();
        try {
          const target = svc ?? `http://127.0.0.1:${await deadPort()}`;
          const { client, tries, resetLog } = clientFor(target, cellOptions(fault.id));
          const baseline = op.id === "calls" && svc ? await runOperation(client, "calls") : undefined;
          resetLog();
          if (svc) inject(svc, fault.id, op.id);

          const sink: RunResult = {};
          const started = Date.now();
          const outcome = await within(
            CELL_BOUND_MS,
            settle(runOperation(client, op.id, {}, sink, fault.id === "slowConsumerFetch" ? STALL_MS + 200 : 0)),
            `${fault.id} × ${op.id}`,
          );
          const cell: Cell = {
            fault: fault.id,
            op: op.id,
            sink,
            error: "error" in outcome ? outcome.error : undefined,
            elapsed: Date.now() - started,
            baseline,
          };

          if ("ok" in exp) {
            expect(cell.error, `expected success, got ${String(cell.error)}`).toBeUndefined();
          } else {
            expect(cell.error).toBeInstanceOf(InferloopError);
            const err = cell.error as Error;
            expect(err.name).toBe(exp.error);
            // One short line, whatever the server sent.
            expect(err.message.length).toBeLessThan(300);
            expect(err.message).not.toContain("\n");
            if (exp.error === "ResponseParseError") expect(err).toBeInstanceOf(ResponseParseError);
          }
          expect(tries()).toBe(exp.tries);
          if (exp.jobs !== undefined) expect(svc?.trainingJobs.length ?? 0).toBe(exp.jobs);
          verify(cell, exp);
        } finally {
          await svc?.close();
        }
      }, 20_000);
    }
  }
});

describe.concurrent("no duplicate training jobs", () => {
  const sequences: Array<{ name: string; faults: (path: string) => Fault[]; options?: { idleTimeout?: number } }> = [
    { name: "resets mid-body", faults: (path) => [faults.reset({ path, afterBytes: 5, times: 2 })] },
    {
      name: "reset before headers, 503, reset mid-body",
      faults: (path) => [
        faults.reset({ path }),
        faults.status(503, { path, headers: { "retry-after-ms": "10" } }),
        faults.reset({ path, afterBytes: 5 }),
      ],
    },
    {
      name: "5xx burst",
      faults: (path) => [
        faults.status(500, { path, headers: { "retry-after-ms": "10" } }),
        faults.status(502, { path, headers: { "retry-after-ms": "10" } }),
        faults.serviceUnavailable({ path }),
      ],
    },
    {
      name: "stall mid-body, then reset mid-body",
      faults: (path) => [faults.stall({ path, afterBytes: 5 }), faults.reset({ path, afterBytes: 5 })],
      options: { idleTimeout: STALL_MS },
    },
  ];
  for (const seq of sequences) {
    it(`${seq.name}: at most one job without a key, exactly one with a key`, async () => {
      const svc = await startFakeService();
      try {
        const path = "/v1/preview/training-jobs";
        const { client } = clientFor(svc, { maxRetries: 3, ...seq.options });
        for (const f of seq.faults(path)) svc.inject(f);
        const plain = await within(CELL_BOUND_MS, settle(client.trainingJobs.create(trainingJob)));
        expect(svc.trainingJobs.length).toBeLessThanOrEqual(1);
        if ("value" in plain) expect(svc.trainingJobs).toHaveLength(1);

        svc.reset();
        for (const f of seq.faults(path)) svc.inject(f);
        const keyed = await within(
          CELL_BOUND_MS,
          client.trainingJobs.create(trainingJob, { idempotencyKey: `key-${seq.name}` }),
        );
        expect(svc.trainingJobs).toHaveLength(1);
        expect(keyed.id).toBe(svc.trainingJobs[0]!.id);
        expect(
          svc.requests.filter((r) => r.path === path).every((r) => r.headers["idempotency-key"] === `key-${seq.name}`),
        ).toBe(true);
      } finally {
        await svc.close();
      }
    }, 20_000);
  }
});

describe.concurrent("HTML error page from a proxy", () => {
  for (const op of OPERATIONS) {
    it(`${op.label}: a 502 page gives a one-line message, not the page`, async () => {
      const svc = await startFakeService();
      try {
        svc.inject(faults.badGatewayHtml({ path: PATHS[op.id], times: Infinity }));
        const { client } = clientFor(svc, { maxRetries: 0 });
        const outcome = await within(CELL_BOUND_MS, settle(runOperation(client, op.id)));
        const err = ("error" in outcome ? outcome.error : undefined) as APIError;
        expect(err.name).toBe("InternalServerError");
        expect(err.status).toBe(502);
        expect(err.message).toBe(
          "502 Bad Gateway (an HTML error page, likely from a proxy or gateway: 502 Bad Gateway)",
        );
        expect(String(err.body).length).toBeLessThanOrEqual(500);
      } finally {
        await svc.close();
      }
    });
  }
});

describe("docs/reliability.md", () => {
  it("holds the table generated from fault-table.ts (run `node scripts/reliability-table.mjs` after a change)", () => {
    const doc = readFileSync(new URL("../../docs/reliability.md", import.meta.url), "utf8");
    expect(doc).toContain(renderFaultTable(OPERATIONS, FAULTS, TABLE));
  });

  it("covers every cell of the table with a test above", () => {
    for (const f of FAULTS) for (const o of OPERATIONS) expect(TABLE[f.id][o.id], `${f.id} × ${o.id}`).toBeDefined();
  });
});
