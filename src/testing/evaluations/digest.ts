/**
 * Content digests as Weave's server makes them (`wandb/weave` `weave/shared/digest.py`:
 * `str_digest` is SHA-256, URL-safe base64 with `-` and `_` written `X` and `Y`, no padding),
 * of the text Python's `json.dumps(value, sort_keys=True)` writes (what
 * `eval_results_helpers.py` hashes for a row): `", "` and `": "` between items, keys in code
 * point order, everything outside printable ASCII escaped.
 */
import { sha256 } from "@noble/hashes/sha2.js";

const encoder = new TextEncoder();

/** Weave's `str_digest` of a text. */
export function strDigest(text: string): string {
  let binary = "";
  for (const byte of sha256(encoder.encode(text))) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "X").replaceAll("/", "Y").replaceAll("=", "");
}

/** Lower-case hex of SHA-256 (`hashlib.sha256(...).hexdigest()`). */
export function sha256Hex(text: string): string {
  return Array.from(sha256(encoder.encode(text)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function dumpString(s: string): string {
  let out = "";
  for (const c of s) {
    // Each UTF-16 unit outside printable ASCII as \uXXXX (`ensure_ascii`).
    if (ESCAPES[c] !== undefined) out += ESCAPES[c];
    else if (c >= " " && c <= "~") out += c;
    else for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return `"${out}"`;
}

// The JSON the client sent parses to a Python int when its text has no fraction or exponent,
// else to a float, whose repr Python writes in exponent form below 1e-4 and from 1e16.
function dumpNumber(n: number): string {
  const sent = JSON.stringify(n);
  if (!/[.eE]/.test(sent)) return sent;
  const [digits, power] = n.toExponential().split("e") as [string, string];
  const p = Number(power);
  if (p < -4 || p >= 16) return `${digits}e${p < 0 ? "-" : "+"}${String(Math.abs(p)).padStart(2, "0")}`;
  const plain = String(n);
  return plain.includes(".") ? plain : `${plain}.0`;
}

const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);

function byCodePoints(a: string, b: string): number {
  const [x, y] = [codePoints(a), codePoints(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Python's `json.dumps(value, sort_keys=True)` of a parsed JSON value. */
export function dumpsSorted(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "number":
      return dumpNumber(value);
    case "string":
      return dumpString(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map(dumpsSorted).join(", ")}]`;
      const keys = Object.keys(value).sort(byCodePoints);
      return `{${keys.map((k) => `${dumpString(k)}: ${dumpsSorted((value as Record<string, unknown>)[k])}`).join(", ")}}`;
    }
    default:
      return dumpString(String(value));
  }
}
