import { isObject } from "../decoding/response-checks.js";
import type { APIErrorInit, ValidationDetail } from "./errors.js";

/** Longest piece of a non-JSON error body that is kept, so a proxy page never floods a log. */
const MAX_TEXT = 500;

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** A `loc` entry is a field name or an index; anything else (a nested array, an object) is
 * not a location and would make `join` recurse as deep as the server nested it. */
function locPart(v: unknown): v is string | number {
  return typeof v === "string" || typeof v === "number";
}

function detailList(v: unknown): ValidationDetail[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isObject).map((d) => ({
    ...d,
    loc: Array.isArray(d.loc) ? d.loc.filter(locPart) : [],
    msg: typeof d.msg === "string" ? d.msg : typeof d.msg === "number" ? String(d.msg) : "",
    type: typeof d.type === "string" ? d.type : "",
  }));
}

function describeDetail(detail: ValidationDetail[]): string {
  return detail
    .slice(0, 5)
    .map((d) => (d.loc.length ? `${d.loc.join(".")}: ${d.msg}` : d.msg))
    .join("; ");
}

/**
 * Read the message out of any error envelope the service family sends: OpenAI/vLLM
 * `{error:{message,type,param,code}}`, the older flat `{object:"error",message,...}`,
 * FastAPI `{detail:[...]}` or `{detail:"..."}`, the trace server's `{reason}`, or plain text.
 * Works on parsed JSON so stream error events share it.
 */
export function describeErrorPayload(
  status: number,
  payload: unknown,
): Omit<APIErrorInit, "headers" | "status" | "body"> {
  if (isObject(payload)) {
    const nested = isObject(payload.error) ? payload.error : undefined;
    const src = nested ?? payload;
    const detail = detailList(payload.detail);
    const message =
      str(src.message) ??
      (typeof payload.error === "string" ? payload.error : undefined) ??
      graphqlMessages(payload.errors) ??
      (detail ? describeDetail(detail) : undefined) ??
      str(payload.detail) ??
      str(payload.reason) ??
      fallback(status);
    return {
      message: `${status} ${message}`,
      type: str(src.type),
      param: typeof src.param === "string" || src.param === null ? (src.param as string | null) : undefined,
      code: typeof src.code === "string" || typeof src.code === "number" ? src.code : undefined,
      detail,
    };
  }
  return { message: `${status} ${fallback(status)}` };
}

/**
 * The messages of a GraphQL `errors` list (`[{message, path}]`, or plain strings as some W&B
 * servers send), joined; W&B's GraphQL API answers a refusal so, often with status 400.
 */
export function graphqlMessages(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const messages = errors
    .slice(0, 5)
    .map((e) => (typeof e === "string" ? e : isObject(e) ? str(e.message) : undefined))
    .filter((m): m is string => m !== undefined);
  return messages.length > 0 ? messages.join("; ") : undefined;
}

function fallback(status: number): string {
  return STATUS_TEXT[status] ?? "status code (no body)";
}

// The first `"message": "..."` string of a JSON envelope whose end is missing (a huge error
// body is read only up to a limit). The string's length is bounded, so the scan stays linear.
const CUT_MESSAGE = /"message"\s*:\s*("(?:[^"\\\n]|\\.){1,500}")/;

function messageFromCutJSON(text: string): string | undefined {
  const m = CUT_MESSAGE.exec(text.slice(0, 4096));
  if (!m) return undefined;
  try {
    return str(JSON.parse(m[1]!));
  } catch {
    return undefined;
  }
}

/**
 * Turn a raw error body into the parts of an {@link APIErrorInit}. HTML (a proxy's error page)
 * is reduced to its `<title>`, and other text is cut short.
 */
export function parseErrorBody(
  status: number,
  text: string,
  contentType: string | undefined,
): Omit<APIErrorInit, "headers"> {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const body: unknown = JSON.parse(trimmed);
      return { status, body, ...describeErrorPayload(status, body) };
    } catch {
      // Not JSON, or JSON cut off at the read limit: an envelope's message may still be there.
      const message = messageFromCutJSON(trimmed);
      if (message !== undefined)
        return { status, body: trimmed.slice(0, MAX_TEXT), message: `${status} ${message.slice(0, 200)}` };
    }
  }
  if (/html/i.test(contentType ?? "") || /^<(!doctype|html)/i.test(trimmed)) {
    const title = htmlTitle(trimmed);
    const what = title ? `: ${title.slice(0, 120)}` : "";
    return {
      status,
      body: trimmed.slice(0, MAX_TEXT),
      message: `${status} ${fallback(status)} (an HTML error page, likely from a proxy or gateway${what})`,
    };
  }
  if (trimmed.length === 0) return { status, body: undefined, message: `${status} ${fallback(status)}` };
  const short = trimmed.length > MAX_TEXT ? `${trimmed.slice(0, MAX_TEXT)}…` : trimmed;
  return { status, body: short, message: `${status} ${short}` };
}

/**
 * The text of the first `<title>` element, found with `indexOf` scans that each move forward
 * only, so any page costs time linear in its length (a regular expression that backtracks took
 * time far past linear on a page of unclosed tags, blocking the event loop: docs/performance.md).
 */
export function htmlTitle(html: string): string | undefined {
  const lower = html.toLowerCase();
  let from = 0;
  for (;;) {
    const open = lower.indexOf("<title", from);
    if (open < 0) return undefined;
    const after = lower.charCodeAt(open + 6);
    // `<titles>` or `<title-x>` is another tag: keep looking after it.
    if (after !== 62 /* > */ && after !== 32 && after !== 9 && after !== 10 && after !== 13 && after !== 47) {
      from = open + 6;
      continue;
    }
    const start = lower.indexOf(">", open + 6);
    if (start < 0) return undefined;
    const end = lower.indexOf("</title>", start + 1);
    if (end < 0) return undefined;
    const text = html.slice(start + 1, end);
    // The old rule stopped at the first "<": a title holding markup is no title.
    return text.includes("<") ? undefined : text.trim();
  }
}
