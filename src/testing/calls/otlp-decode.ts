/**
 * OTLP trace export requests (`ExportTraceServiceRequest`), read from protobuf or from OTLP/JSON
 * into one plain shape. Only the fields a trace server turns into calls are kept. A small
 * protobuf wire reader, so the fake needs no protobuf runtime.
 */

/** One span as the fake reads it: ids in hex, times in nanoseconds, attributes as values. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  startNanos: bigint;
  endNanos: bigint;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  /** The attributes of the resource that sent it (`service.name`, `wandb.entity`, ...). */
  resource: Record<string, unknown>;
}

/** A body that is not a trace export request. */
export class OtlpDecodeError extends Error {
  override name = "OtlpDecodeError";
}

// --- protobuf wire format -------------------------------------------------------------------

type Field = { no: number; wire: number; varint: bigint; bytes: Uint8Array | undefined };

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) throw new OtlpDecodeError("truncated varint");
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new OtlpDecodeError("varint longer than 10 bytes");
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.buf.length) throw new OtlpDecodeError("field runs past the end of the message");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  *fields(): Generator<Field> {
    while (this.pos < this.buf.length) {
      const key = Number(this.varint());
      const no = key >>> 3;
      const wire = key & 7;
      if (wire === 0) yield { no, wire, varint: this.varint(), bytes: undefined };
      else if (wire === 1) yield { no, wire, varint: 0n, bytes: this.take(8) };
      else if (wire === 2) yield { no, wire, varint: 0n, bytes: this.take(Number(this.varint())) };
      else if (wire === 5) yield { no, wire, varint: 0n, bytes: this.take(4) };
      else throw new OtlpDecodeError(`unsupported wire type ${wire}`);
    }
  }
}

const utf8 = new TextDecoder();
const text = (f: Field): string => utf8.decode(f.bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined): string =>
  Array.from(bytes ?? [], (b) => b.toString(16).padStart(2, "0")).join("");
const fixed64 = (f: Field): bigint =>
  f.bytes === undefined ? f.varint : new DataView(f.bytes.buffer, f.bytes.byteOffset, 8).getBigUint64(0, true);

function protoAnyValue(buf: Uint8Array): unknown {
  let value: unknown;
  for (const f of new Reader(buf).fields()) {
    if (f.no === 1) value = text(f);
    else if (f.no === 2) value = f.varint !== 0n;
    else if (f.no === 3) value = Number(BigInt.asIntN(64, f.varint));
    else if (f.no === 4 && f.bytes) value = new DataView(f.bytes.buffer, f.bytes.byteOffset, 8).getFloat64(0, true);
    else if (f.no === 5 && f.bytes)
      value = [...new Reader(f.bytes).fields()].filter((v) => v.no === 1).map((v) => protoAnyValue(v.bytes!));
    else if (f.no === 6 && f.bytes) value = protoKeyValues(new Reader(f.bytes).fields());
    else if (f.no === 7) value = hex(f.bytes);
  }
  return value;
}

function protoKeyValues(fields: Iterable<Field>, into: Record<string, unknown> = {}, no = 1): Record<string, unknown> {
  for (const f of fields) {
    if (f.no !== no || f.bytes === undefined) continue;
    let key = "";
    let value: unknown;
    for (const kv of new Reader(f.bytes).fields()) {
      if (kv.no === 1) key = text(kv);
      else if (kv.no === 2 && kv.bytes) value = protoAnyValue(kv.bytes);
    }
    into[key] = value;
  }
  return into;
}

function protoSpan(buf: Uint8Array, resource: Record<string, unknown>): OtlpSpan {
  const span: OtlpSpan = {
    traceId: "",
    spanId: "",
    parentSpanId: undefined,
    name: "",
    kind: 0,
    startNanos: 0n,
    endNanos: 0n,
    attributes: {},
    status: { code: 0, message: "" },
    resource,
  };
  const fields = [...new Reader(buf).fields()];
  for (const f of fields) {
    if (f.no === 1) span.traceId = hex(f.bytes);
    else if (f.no === 2) span.spanId = hex(f.bytes);
    else if (f.no === 4 && f.bytes && f.bytes.length > 0) span.parentSpanId = hex(f.bytes);
    else if (f.no === 5) span.name = text(f);
    else if (f.no === 6) span.kind = Number(f.varint);
    else if (f.no === 7) span.startNanos = fixed64(f);
    else if (f.no === 8) span.endNanos = fixed64(f);
    else if (f.no === 15 && f.bytes)
      for (const s of new Reader(f.bytes).fields()) {
        if (s.no === 2) span.status.message = text(s);
        else if (s.no === 3) span.status.code = Number(s.varint);
      }
  }
  protoKeyValues(fields, span.attributes, 9);
  return span;
}

/**
 * The spans of a protobuf `ExportTraceServiceRequest`.
 */
export function decodeOtlpProtobuf(body: Uint8Array): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const rs of new Reader(body).fields()) {
    if (rs.no !== 1 || rs.bytes === undefined) continue;
    const parts = [...new Reader(rs.bytes).fields()];
    const resource: Record<string, unknown> = {};
    for (const p of parts) if (p.no === 1 && p.bytes) protoKeyValues(new Reader(p.bytes).fields(), resource);
    for (const p of parts) {
      if (p.no !== 2 || p.bytes === undefined) continue;
      for (const s of new Reader(p.bytes).fields()) if (s.no === 2 && s.bytes) spans.push(protoSpan(s.bytes, resource));
    }
  }
  return spans;
}

// --- OTLP/JSON ------------------------------------------------------------------------------

type JsonObject = Record<string, unknown>;
const obj = (v: unknown): JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function jsonAnyValue(v: unknown): unknown {
  const o = obj(v);
  if ("stringValue" in o) return o["stringValue"];
  if ("boolValue" in o) return o["boolValue"];
  if ("intValue" in o) return Number(o["intValue"]);
  if ("doubleValue" in o) return Number(o["doubleValue"]);
  if ("arrayValue" in o) return arr(obj(o["arrayValue"])["values"]).map(jsonAnyValue);
  if ("kvlistValue" in o) return jsonKeyValues(obj(o["kvlistValue"])["values"]);
  if ("bytesValue" in o) return o["bytesValue"];
  return undefined;
}

function jsonKeyValues(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of arr(list)) out[String(obj(kv)["key"])] = jsonAnyValue(obj(kv)["value"]);
  return out;
}

const nanos = (v: unknown): bigint => {
  try {
    return BigInt(typeof v === "number" || typeof v === "string" ? v : 0);
  } catch {
    return 0n;
  }
};

/**
 * The spans of an OTLP/JSON `ExportTraceServiceRequest` (ids in hex, as the spec writes them).
 */
export function decodeOtlpJson(body: unknown): OtlpSpan[] {
  if (!Array.isArray(obj(body)["resourceSpans"])) throw new OtlpDecodeError("no resourceSpans array");
  const spans: OtlpSpan[] = [];
  for (const rs of arr(obj(body)["resourceSpans"])) {
    const resource = jsonKeyValues(obj(obj(rs)["resource"])["attributes"]);
    for (const ss of arr(obj(rs)["scopeSpans"]))
      for (const s of arr(obj(ss)["spans"])) {
        const span = obj(s);
        const status = obj(span["status"]);
        const parent =
          typeof span["parentSpanId"] === "string" && span["parentSpanId"] !== "" ? span["parentSpanId"] : undefined;
        spans.push({
          traceId: String(span["traceId"] ?? ""),
          spanId: String(span["spanId"] ?? ""),
          parentSpanId: parent,
          name: String(span["name"] ?? ""),
          kind: Number(span["kind"] ?? 0),
          startNanos: nanos(span["startTimeUnixNano"]),
          endNanos: nanos(span["endTimeUnixNano"]),
          attributes: jsonKeyValues(span["attributes"]),
          status: { code: Number(status["code"] ?? 0), message: String(status["message"] ?? "") },
          resource,
        });
      }
  }
  return spans;
}
