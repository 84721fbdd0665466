/**
 * A file's data made ready to send: its size and MD5 known up front (W&B asks for the MD5
 * before it hands out the upload URL), and a body that can be sent again on a retry. Bytes and
 * Blobs are hashed where they are; data that can be read only once is spooled while hashed.
 */

import { streamChunks } from "../../core/decoding/stream-chunks.js";
import { RequestValidationError } from "../../core/errors/errors.js";
import { blobBody, bytesBody } from "./bodies.js";
import { base64Bytes } from "./bytes.js";
import { md5Base64 } from "./digest.js";
import { type HeldBytes, spool } from "./local-files.js";
import { createMd5 } from "./md5.js";
import type { ArtifactFileInput } from "./types.js";

function bytesHeld(bytes: Uint8Array): HeldBytes {
  return {
    size: bytes.byteLength,
    digest: md5Base64(bytes),
    body: bytesBody(bytes),
    slice: (start, end) => bytesBody(bytes.subarray(start, end)),
    dispose: async () => {},
  };
}

async function blobHeld(blob: Blob): Promise<HeldBytes> {
  const h = createMd5();
  for await (const chunk of streamChunks(blob.stream())) h.update(chunk);
  return {
    size: blob.size,
    digest: base64Bytes(h.digest()),
    body: blobBody(blob),
    slice: (start, end) => blobBody(blob.slice(start, end)),
    dispose: async () => {},
  };
}

/** Each chunk checked to be bytes, so a wrong iterable is refused naming the file. */
async function* checkedChunks(
  source: Iterable<unknown> | AsyncIterable<unknown>,
  field: string,
): AsyncGenerator<Uint8Array> {
  let i = 0;
  for await (const chunk of source) {
    if (!(chunk instanceof Uint8Array))
      throw new RequestValidationError(
        [{ path: field, message: `chunk ${i} is not a Uint8Array: encode text with TextEncoder`, code: "custom" }],
        "artifacts.upload request",
      );
    i++;
    yield chunk;
  }
}

/** Makes one file's data ready to send; `field` names it in a refusal (`files.0.data`). */
export async function holdData(data: ArtifactFileInput["data"], field: string): Promise<HeldBytes> {
  if (typeof data === "string") return bytesHeld(new TextEncoder().encode(data));
  if (data instanceof Uint8Array) return bytesHeld(data);
  if (typeof Blob !== "undefined" && data instanceof Blob) return blobHeld(data);
  return spool(checkedChunks(data as Iterable<unknown> | AsyncIterable<unknown>, field));
}
