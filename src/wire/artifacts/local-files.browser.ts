// The browser build's local-files.ts: no file system. Data read once is gathered into a Blob
// while it is hashed (a browser may keep a large Blob on disk, but that is its choice), and
// downloads to a directory are refused with the way out (`artifacts.files`).
import { InferloopError } from "../../core/errors/errors.js";
import { blobBody } from "./bodies.js";
import { base64Bytes } from "./bytes.js";
import type { HeldBytes } from "./local-files.js";
import { createMd5 } from "./md5.js";

export type { HeldBytes } from "./local-files.js";

/** Gathers chunks into a Blob while hashing them. */
export async function spool(chunks: AsyncIterable<Uint8Array>): Promise<HeldBytes> {
  const hash = createMd5();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.byteLength;
    parts.push(chunk as Uint8Array<ArrayBuffer>);
  }
  const blob = new Blob(parts);
  parts.length = 0;
  return {
    size,
    digest: base64Bytes(hash.digest()),
    body: blobBody(blob),
    slice: (start, end) => blobBody(blob.slice(start, end)),
    dispose: async () => {},
  };
}

const noFiles = (what: string) =>
  new InferloopError(
    `${what} needs a file system, which this runtime does not have: read the files with \`client.artifacts.files(ref)\` instead.`,
  );

/** Refused: no file system. */
// biome-ignore lint/correctness/useYield: refused before the first line
export async function* fileLines(_path: string): AsyncGenerator<string> {
  throw noFiles("Reading a JSONL file by path");
}

/** Refused: no file system. */
export function pathUnder(_dir: string, _name: string): string | undefined {
  throw noFiles("Downloading to a directory");
}

/** Refused: no file system. */
export async function writeChecked(): Promise<void> {
  throw noFiles("Downloading to a directory");
}

/** Whether this runtime can write downloads to a directory. */
export const hasFileSystem = false;
