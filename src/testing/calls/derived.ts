/**
 * Two numbers Weave's trace server derives from a stored call, computed as it computes them:
 * `summary.weave.latency_ms` and the storage size (`include_storage_size`,
 * `include_total_storage_size`).
 */
import type { FakeCallRecord } from "../types.js";

// Whole milliseconds since the epoch (of the time without its fraction) and the fraction's
// microseconds: the precision Python's datetime keeps.
function micros(time: string): number {
  const m = /^(.*?:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/.exec(time);
  if (m === null) return Number.NaN;
  const whole = Date.parse(`${m[1]}${m[3] ?? "Z"}`);
  return whole * 1000 + Number((m[2] ?? "").slice(0, 6).padEnd(6, "0"));
}

/**
 * The latency of a call as Weave derives it: the duration in whole milliseconds, floored
 * (`trace_server_common.make_derived_summary_fields` adds `microseconds // 1000`), so a call of
 * 10.9 ms has a latency of 10. `undefined` when either time cannot be read.
 *
 * @example
 * ```ts
 * latencyMs("2026-03-18T10:00:00.000100Z", "2026-03-18T10:00:00.011000Z"); // 10
 * ```
 */
export function latencyMs(startedAt: string, endedAt: string): number | undefined {
  const ms = Math.floor((micros(endedAt) - micros(startedAt)) / 1000);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A JSON value written as Python's `json.dumps` writes it with its defaults, which is how Weave
 * stores a call's JSON members: `", "` and `": "` between items, non-ASCII characters as
 * `\uXXXX`, and floats as Python writes them (`1e-05`, not `0.00001`).
 *
 * @example
 * ```ts
 * pythonJsonDumps({ q: "café", n: [1, 2] }); // '{"q": "caf\\u00e9", "n": [1, 2]}'
 * ```
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonString(k)}: ${pythonJsonDumps(v)}`)
      .join(", ")}}`;
  return "null";
}

function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  // Python's float repr turns to exponent form below 1e-4 (JavaScript's below 1e-6) and writes
  // at least two exponent digits; integers are Python ints, written in full.
  if (!Number.isInteger(n) && Math.abs(n) < 1e-4) {
    const [mantissa, exponent] = n.toExponential().split("e") as [string, string];
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[-+]/, "").padStart(2, "0")}`;
  }
  return JSON.stringify(n);
}

function pythonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    // Outside printable ASCII (DEL included), as Python's ensure_ascii writes it.
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * The storage size of a call as Weave reports it: the lengths of the four JSON texts it stores,
 * `attributes` and `inputs` (written when the call starts) and `output` and `summary` (written
 * when it ends, so 0 while it runs), added up (the sqlite server's `length(attributes) + ...`,
 * ClickHouse's `calls_merged_stats` sizes). The summary is the one the caller stored, without
 * the derived `weave` member.
 *
 * @example
 * ```ts
 * const running = { id: "c1", project_id: "acme/bot", op_name: "answer", trace_id: "t1", started_at: "2026-03-18T10:00:00Z", ended_at: null };
 * storedSize({ ...running, attributes: {}, inputs: { q: "hi" } }); // 13: "{}" and '{"q": "hi"}'
 * ```
 */
export function storedSize(record: FakeCallRecord): number {
  let size = pythonJsonDumps(record["attributes"] ?? {}).length + pythonJsonDumps(record.inputs ?? {}).length;
  if (typeof record["ended_at"] === "string")
    size += pythonJsonDumps(record["output"]).length + pythonJsonDumps(record["summary"]).length;
  return size;
}
