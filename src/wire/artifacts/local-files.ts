// What the artifacts need of the machine's file system in Node: a spool for data that must be
// hashed before it is sent, file-backed bodies, and safe writes under a download directory. The
// browser build takes local-files.browser.ts.
import { once } from "node:events";
import { createReadStream, createWriteStream, openAsBlob } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import type { StreamedBody } from "../../core/transport/types.js";
import { base64Bytes } from "./bytes.js";
import { createMd5 } from "./md5.js";

/** Bytes kept somewhere with their size and digest, sendable any number of times. */
export interface HeldBytes {
  size: number;
  /** Base64 MD5 (W&B's file digest). */
  digest: string;
  body: StreamedBody;
  /** Bytes `start` to `end` (exclusive) as a body of their own: a part of a multipart upload. */
  slice(start: number, end: number): StreamedBody;
  /** Removes what was kept (a temp file); safe to call twice. */
  dispose(): Promise<void>;
}

/** Where chunks go as they are spooled: a hash beside them, so the digest is known at the end. */
export async function spool(chunks: AsyncIterable<Uint8Array>): Promise<HeldBytes> {
  // W&B asks for every file's MD5 before it hands out an upload URL, so data that can only be
  // read once is written to a temp file while it is hashed: memory stays constant.
  const dir = await mkdtemp(join(tmpdir(), "inferloop-upload-"));
  const path = join(dir, "data");
  let written: { digest: string; size: number };
  try {
    written = await writeHashed(path, chunks);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const { size, digest } = written;
  return {
    size,
    digest,
    body: fileBody(path, size),
    slice: (start, end) => fileBody(path, end - start, start),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

function fileBody(path: string, length: number, start = 0): StreamedBody {
  const whole = start === 0;
  return {
    length,
    stream: () =>
      length === 0
        ? (async function* () {})()
        : createReadStream(path, { highWaterMark: 256 * 1024, start, end: start + length - 1 }),
    blob: () => (whole ? openAsBlob(path) : openAsBlob(path).then((b) => b.slice(start, start + length))),
  };
}

/** Writes chunks to a file, waiting on the disk, while hashing them. */
async function writeHashed(path: string, chunks: AsyncIterable<Uint8Array>): Promise<{ digest: string; size: number }> {
  const hash = createMd5();
  let size = 0;
  const out = createWriteStream(path);
  // A stream's error is kept and thrown at the next chunk or at the end: with no listener, one
  // that comes late (a write still queued when the source failed and the stream was destroyed)
  // would end the process.
  let failure: Error | undefined;
  out.on("error", (err) => {
    failure ??= err;
  });
  try {
    for await (const chunk of chunks) {
      if (failure) throw failure;
      hash.update(chunk);
      size += chunk.byteLength;
      // Rejects on the stream's error, which would otherwise leave the drain unawaited forever.
      if (!out.write(chunk)) await once(out, "drain");
    }
    if (failure) throw failure;
    await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
  } catch (err) {
    // The file's handle is closed before the caller removes the file.
    if (!out.closed) await new Promise<void>((r) => out.destroy().once("close", () => r()));
    throw err;
  }
  return { digest: base64Bytes(hash.digest()), size };
}

/** The lines of a text file, read as they are needed; the file is closed however the reading ends. */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** `name` (already checked to be relative and free of `..`) resolved under `dir`, or undefined
 * when it would still land outside (a last guard against a platform's own path rules). */
export function pathUnder(dir: string, name: string): string | undefined {
  const root = resolve(dir);
  const target = resolve(root, ...name.split("/"));
  const rel = relative(root, target);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return undefined;
  return target;
}

/**
 * Writes a stream to `target` through a temp file beside it, hashing as it goes; the file takes
 * its name only when `accept(digest, size)` returns true, else the temp file is removed.
 */
export async function writeChecked(
  target: string,
  chunks: AsyncIterable<Uint8Array>,
  accept: (digest: string, size: number) => void,
): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.partial-${Math.random().toString(36).slice(2, 10)}`;
  try {
    const { digest, size } = await writeHashed(partial, chunks);
    accept(digest, size);
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** Whether this runtime can write downloads to a directory. */
export const hasFileSystem = true;
