// Request bodies over bytes in memory and over Blobs: sendable any number of times (a retried
// PUT, a part of a multipart upload).
import { streamChunks } from "../../core/decoding/stream-chunks.js";
import type { StreamedBody } from "../../core/transport/types.js";

const SLICE = 1024 * 1024;

/** Bytes as a body, streamed in 1 MiB slices. */
export function bytesBody(bytes: Uint8Array): StreamedBody {
  return {
    length: bytes.byteLength,
    async *stream() {
      for (let i = 0; i < bytes.byteLength; i += SLICE) yield bytes.subarray(i, i + SLICE);
    },
    blob: async () => new Blob([bytes as Uint8Array<ArrayBuffer>]),
  };
}

/** A Blob as a body. */
export function blobBody(blob: Blob): StreamedBody {
  return { length: blob.size, stream: () => streamChunks(blob.stream()), blob: async () => blob };
}
