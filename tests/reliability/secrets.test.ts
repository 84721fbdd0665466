/**
 * Secrets: one walk over every error path with a known API key and password. Servers echo the
 * credentials back (in JSON bodies, as a Python server escapes them, in text and HTML pages, in
 * headers, in stream error events, in a bad JSONL line); none of the key, the password, the
 * Basic value, nor "Bearer <key>" may appear in any message, stack, JSON.stringify or
 * util.inspect of an error or of the client, or in any log line at `debug`.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { type ClientOptions, Inferloop } from "../../src/index.js";
import { type Fault, faults, startFakeService } from "../../src/testing/index.js";
import type { OperationId } from "./fault-table.js";
import { deadPort, guardProcess, type LogLine, PATHS, runOperation, settle, within } from "./harness.js";

guardProcess();

// Non-ASCII and a quote: a JSON echo escapes them (`\"`, `\u00e4`), so the raw body text does
// not contain them literally, only the parsed value does.
const KEY = "sk-live-RELIABILITY-4f9c2e7a1b3d5f60";
const USER = "svc-reliability";
const PASSWORD = 'pä"ss-RELIABILITY-7e1d9c3b';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`, "utf8").toString("base64");
const FORBIDDEN = [KEY, PASSWORD, BASIC, `Bearer ${KEY}`, `Basic ${BASIC}`];
// A secret cut in half by a length limit is still a leak: look for long prefixes too.
const PREFIXES = [KEY.slice(0, 16), PASSWORD.slice(0, 12), BASIC.slice(0, 16)];

const ECHO = `key=${KEY} password=${PASSWORD} auth=Basic ${BASIC} header=Bearer ${KEY}`;

/** JSON the way Python's json.dumps writes it (ensure_ascii): non-ASCII as \uXXXX. */
function pythonJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const OPS: OperationId[] = ["chat", "chatStream", "models", "calls", "progress", "jobs", "jobsKey"];
const STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503];

function echoBody(status: number): string {
  if (status === 422)
    return pythonJson({
      detail: [
        {
          loc: ["body", ECHO],
          msg: `bad value ${ECHO}`,
          type: "value_error",
          input: { authorization: `Basic ${BASIC}` },
        },
      ],
    });
  if (status === 404) return pythonJson({ reason: `nothing for ${ECHO}` });
  return pythonJson({ error: { message: `echo: ${ECHO}`, type: "Echo", param: PASSWORD, code: status } });
}

const echoHeaders = {
  "x-echo-authorization": `Bearer ${KEY}`,
  "www-authenticate": `Basic realm="${PASSWORD}"`,
  "x-debug": `basic=${BASIC}`,
  "retry-after-ms": "1",
};

interface Artifact {
  where: string;
  text: string;
}

describe("secrets", () => {
  it("never appear in errors, in the client, or in debug logs, on any error path", async () => {
    const artifacts: Artifact[] = [];
    const logLines: LogLine[] = [];
    const logger = Object.fromEntries(
      ["error", "warn", "info", "debug"].map((level) => [
        level,
        (line: string, ...details: unknown[]) => void logLines.push({ level, line, details }),
      ]),
    ) as unknown as NonNullable<ClientOptions["logger"]>;
    const record = (where: string, err: unknown) => {
      expect(err, `${where}: expected an error`).toBeInstanceOf(Error);
      const e = err as Error;
      artifacts.push(
        { where: `${where} message`, text: e.message },
        { where: `${where} stack`, text: e.stack ?? "" },
        { where: `${where} JSON.stringify`, text: JSON.stringify(e) },
        { where: `${where} util.inspect`, text: inspect(e, { depth: Infinity }) },
        { where: `${where} String`, text: String(e) },
      );
    };

    /** Every error path through one transport, against a service of its own. */
    const walk = async (name: "undici" | "fetch") => {
      const svc = await startFakeService({ apiKey: KEY, username: USER, password: PASSWORD });
      const transport: ClientOptions = name === "fetch" ? { fetch: (url, init) => fetch(url, init) } : {};
      const make = (options: ClientOptions = {}) =>
        new Inferloop({
          baseURL: svc.url,
          apiKey: KEY,
          username: USER,
          password: PASSWORD,
          logger,
          logLevel: "debug",
          maxRetries: 1,
          ...transport,
          ...options,
        });
      const client = make();
      const attempt = async (where: string, c: Inferloop, op: OperationId, fault?: Fault) => {
        if (fault) svc.inject(fault);
        const outcome = await within(10_000, settle(runOperation(c, op)), where);
        record(`${name} ${where}`, "error" in outcome ? outcome.error : undefined);
        svc.state.faults.clear();
      };
      try {
        // Every HTTP error status, on every operation, with the credentials echoed back (and
        // retried where the status allows, so the retry log lines are walked too).
        for (const op of OPS) {
          const path = PATHS[op];
          for (const status of STATUSES)
            await attempt(
              `${op} ${status}`,
              client,
              op,
              faults.status(status, { path, body: echoBody(status), headers: echoHeaders, times: 2 }),
            );
          await attempt(
            `${op} text 500`,
            client,
            op,
            faults.status(500, {
              path,
              body: `plain text ${ECHO} `.repeat(30),
              headers: { "content-type": "text/plain", ...echoHeaders },
              times: 2,
            }),
          );
          await attempt(
            `${op} html 502`,
            client,
            op,
            faults.status(502, {
              path,
              body: `<html><head><title>${ECHO}</title></head><body>${ECHO}</body></html>`,
              headers: { "content-type": "text/html", ...echoHeaders },
              times: 2,
            }),
          );
          await attempt(
            `${op} malformed JSON`,
            client,
            op,
            faults.body(`{"echo": "${ECHO.replaceAll('"', '\\"')}", `, { path }),
          );
        }
        // Connection faults. (undici's timeouts tick at ~1 s, so the stalls are walked on two
        // operations only: the messages do not depend on the operation.)
        const quick = client.withOptions({ timeout: 100, idleTimeout: 100, maxRetries: 0 });
        for (const op of ["chat", "chatStream", "calls", "progress", "jobs"] as const) {
          await attempt(`${op} reset before headers`, quick, op, faults.reset({ path: PATHS[op] }));
          await attempt(`${op} reset mid-body`, quick, op, faults.reset({ path: PATHS[op], afterBytes: 5 }));
        }
        for (const op of ["chatStream", "calls"] as const) {
          await attempt(`${op} stall before headers`, quick, op, faults.stall({ path: PATHS[op] }));
          await attempt(`${op} stall mid-body`, quick, op, faults.stall({ path: PATHS[op], afterBytes: 5 }));
        }
        const refused = make({ baseURL: `http://127.0.0.1:${await deadPort()}`, maxRetries: 0 });
        for (const op of OPS) await attempt(`${op} refused`, refused, op);

        // Streams: error events echoing the credentials, a named error event whose text data
        // is cut at 200 characters right inside the key, a stream cut off, bad JSONL lines.
        for (const code of [400, 401, 500])
          await attempt(
            `stream error event ${code}`,
            client,
            "chatStream",
            faults.streamError({ path: PATHS.chatStream, afterChunks: 1, code, message: `echo: ${ECHO}` }),
          );
        await attempt(
          "named error event",
          client,
          "chatStream",
          faults.insert(1, `event: error\ndata: ${"x".repeat(178)}${ECHO}\n\n`, { path: PATHS.chatStream, end: true }),
        );
        await attempt("stream cut", client, "chatStream", faults.cutStream(2, { path: PATHS.chatStream }));
        await attempt(
          "bad JSONL line",
          client,
          "calls",
          faults.insert(1, `{"echo": "${KEY}", "pw": ${PASSWORD}\n`, { path: PATHS.calls }),
        );
        await attempt(
          "JSONL error then bad line",
          client,
          "calls",
          faults.insert(1, `${pythonJson({ error: { message: ECHO } })}\nnot json ${KEY}\n`, { path: PATHS.calls }),
        );

        // Client-side refusals.
        const invalid = client.chat.completions.create({
          model: KEY,
          messages: [{ role: "robot" as "user", content: PASSWORD }],
        });
        record(
          `${name} validation`,
          await invalid.then(
            () => undefined,
            (e: unknown) => e,
          ),
        );
        const noKey = new Inferloop({
          baseURL: svc.url,
          password: PASSWORD,
          username: USER,
          logger,
          logLevel: "debug",
          ...transport,
        });
        record(
          `${name} missing key`,
          await noKey.models.list().then(
            () => undefined,
            (e: unknown) => e,
          ),
        );

        artifacts.push({
          where: `${name} util.inspect(client)`,
          text: inspect(client, { depth: Infinity, showHidden: true }),
        });
        artifacts.push({ where: `${name} JSON.stringify(client)`, text: JSON.stringify(client) });
        artifacts.push({
          where: `${name} util.inspect(client.withOptions())`,
          text: inspect(quick, { depth: Infinity }),
        });
        const stream = await client.chat.completions.create({
          model: "Qwen/Qwen3-8B",
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        });
        artifacts.push({ where: `${name} util.inspect(stream)`, text: inspect(stream, { depth: Infinity }) });
        await stream.finalCompletion();
        artifacts.push({
          where: `${name} util.inspect(call query)`,
          text: inspect(client.calls.query({ project_id: "acme/support-bot" }), { depth: Infinity }),
        });
      } finally {
        await svc.close();
      }
    };
    await within(50_000, Promise.all([walk("undici"), walk("fetch")]), "secrets walk");
    for (const l of logLines)
      artifacts.push({
        where: `log ${l.level}`,
        text: `${l.line} ${inspect(l.details, { depth: Infinity })} ${JSON.stringify(l.details)}`,
      });

    // The walk really ran: errors from every path, log lines of every kind, and the echoes
    // were there to be scrubbed (the fake did send them).
    expect(artifacts.length).toBeGreaterThan(1000);
    expect(logLines.some((l) => l.level === "debug" && /→/.test(l.line))).toBe(true);
    expect(logLines.some((l) => l.level === "warn" && /retrying/.test(l.line))).toBe(true);
    expect(artifacts.some((a) => a.text.includes("[redacted]"))).toBe(true);

    const leaks: string[] = [];
    for (const a of artifacts) {
      for (const s of [...FORBIDDEN, ...PREFIXES])
        if (a.text.includes(s)) leaks.push(`${a.where}: contains ${JSON.stringify(s.slice(0, 6))}…`);
    }
    expect([...new Set(leaks)]).toEqual([]);
  }, 60_000);
});
