/**
 * The text Weave hashes to tell dataset rows apart: Python's `json.dumps(row, sort_keys=True)`
 * (`wandb/weave` `weave/trace_server/eval_results_helpers.py`, `extract_row_digest_from_example`),
 * and Weave's digest form (`weave/shared/digest.py`, `bytes_digest`: SHA-256 in URL-safe base64,
 * `-` and `_` written `X` and `Y`, no padding). Two runs on rows of the same content then line
 * up row by row, whichever client wrote them.
 *
 * @module
 */
import { compareCodePoints } from "../../wire/artifacts/digest.js";

const DATASET_ROW = "/attr/rows/id/";

/** Python's `repr` of a float: its shortest digits, in exponent form below 1e-4 and from 1e16. */
function pythonFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  const [mantissa = "0", exp = "0"] = n.toExponential().split("e");
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  const fixed = String(n);
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}

// A number the server parsed from the JSON the SDK sent: an int when its text has no fraction
// or exponent, else a float (Python writes `1.0` for it, and `1e+16` for 1e16).
function pythonNumber(n: number): string {
  const text = JSON.stringify(n);
  return /[.eE]/.test(text) ? pythonFloat(n) : text;
}

function pythonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    // ensure_ascii: everything outside printable ASCII as \uXXXX (each UTF-16 unit).
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

/**
 * Python's `json.dumps(value, sort_keys=True)` of a JSON value: `", "` and `": "` separators,
 * keys sorted, non-ASCII escaped.
 *
 * @example
 * ```ts
 * pythonJson({ b: [1, 2.5], a: "é" }); // '{"a": "\\u00e9", "b": [1, 2.5]}'
 * ```
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareCodePoints(a, b));
    return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return pythonString(String(value));
}

/**
 * What Weave hashes for a row (`example`): its digest when it is a dataset-row ref, else the
 * text to hash (a string as it is, anything else as {@link pythonJson}).
 */
export function rowDigestSource(example: unknown): { digest: string } | { text: string } {
  if (typeof example === "string") {
    const at = example.indexOf(DATASET_ROW);
    if (at >= 0) return { digest: example.slice(at + DATASET_ROW.length).split("/")[0]! };
    return { text: example };
  }
  return { text: pythonJson(example) };
}

/** Weave's digest form of SHA-256 bytes. */
export function weaveDigest(sha256: Uint8Array): string {
  let binary = "";
  for (const b of sha256) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "X").replace(/\//g, "Y").replace(/=+$/, "");
}
