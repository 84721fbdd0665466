import type { Readable, Transform } from "node:stream";
import { APIConnectionError, ResponseParseError } from "../errors/errors.js";

type Zlib = typeof import("node:zlib");

let zlibModule: Zlib | undefined;
// Loaded on the first request that may need it, so importing the SDK stays cheap.
const zlib = (): Zlib => (zlibModule ??= process.getBuiltinModule("node:zlib") as Zlib);

let acceptValue: string | undefined;

/**
 * The `accept-encoding` this runtime can decode: gzip and br always, zstd where node:zlib has
 * it (Node 22.15+ / 23.8+). Gzip comes first: every server that compresses speaks it.
 */
export function acceptEncoding(): string {
  return (acceptValue ??= typeof zlib().createZstdDecompress === "function" ? "gzip, br, zstd" : "gzip, br");
}

/** A streaming decoder for a `content-encoding` value; `null` for identity (or none). Throws
 * `ResponseParseError` for an encoding this client cannot decode. */
export function decoderFor(encoding: string | undefined): Transform | null {
  const e = encoding?.trim().toLowerCase();
  if (!e || e === "identity") return null;
  const z = zlib();
  // Flushing on each input chunk: a JSONL record is handed over as soon as its bytes arrive.
  const gentle = { finishFlush: z.constants.Z_SYNC_FLUSH };
  if (e === "gzip" || e === "x-gzip") return z.createGunzip(gentle);
  if (e === "deflate") return z.createInflate(gentle);
  if (e === "br") return z.createBrotliDecompress();
  if (e === "zstd" && typeof z.createZstdDecompress === "function") return z.createZstdDecompress();
  throw new ResponseParseError(
    `The response uses content-encoding "${e.slice(0, 40)}", which this client cannot decode.`,
  );
}

/** Pipe `body` through `decoder`; an error on either side ends the decoded stream with it. */
export function decode(body: Readable, decoder: Transform): Readable {
  body.on("error", (err) => decoder.destroy(err));
  decoder.on("close", () => {
    if (!body.destroyed) body.destroy();
  });
  return body.pipe(decoder);
}

/** A decompression failure as an SDK error: corrupt data is the server's fault and final; a
 * compressed stream that stops short was cut off, like any other body. */
export function decodeError(err: unknown): Error | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return undefined;
  if (code === "Z_BUF_ERROR")
    return new APIConnectionError("The compressed response ended early: it was cut off.", { cause: err });
  // zlib's own codes (Z_DATA_ERROR, ...), brotli's decoder codes (ERR__ERROR_FORMAT_...) and zstd's.
  if (code.startsWith("Z_") || code.startsWith("ERR__ERROR") || code.startsWith("ZSTD_") || code.includes("BROTLI"))
    return new ResponseParseError("The compressed response body is corrupt and could not be decoded.");
  return undefined;
}
