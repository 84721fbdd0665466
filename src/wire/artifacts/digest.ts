/**
 * Digests as W&B computes them (wandb `artifact_manifest_v1.py`,
 * Go `manifest.go`): a file's is the padded base64 of its MD5; an artifact's (`MANIFEST_MD5`)
 * is the hex MD5 of a header line and one `path:digest` line per file, sorted by path.
 */
import { base64Bytes } from "./bytes.js";
import { createMd5 } from "./md5.js";

const MANIFEST_HEADER = "wandb-artifact-manifest-v1\n";

/** Padded base64 of the MD5 of `bytes`: a file's digest. */
export function md5Base64(bytes: Uint8Array): string {
  const h = createMd5();
  h.update(bytes);
  return base64Bytes(h.digest());
}

/** The hex MD5 that names an artifact's content from its files' digests. */
export function manifestDigest(entries: ReadonlyArray<{ name: string; digest: string }>): string {
  // Python sorts the paths by code point; JS `<` compares UTF-16 units, which differs only for
  // characters beyond the BMP, so compare by code points.
  const sorted = [...entries].sort((a, b) => compareCodePoints(a.name, b.name));
  const h = createMd5();
  const encoder = new TextEncoder();
  h.update(encoder.encode(MANIFEST_HEADER));
  for (const e of sorted) h.update(encoder.encode(`${e.name}:${e.digest}\n`));
  return hex(h.digest());
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Lower-case hex of bytes. */
export function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
