/**
 * Multipart uploads of big files, as W&B's uploader makes them (wandb core/pkg/artifacts/
 * multipart.go and saver.go `uploadMultipart`; the Python SDK's storage_policies/_multipart.py
 * agrees on the threshold): a file of 2 GiB or more is announced to `createArtifactFiles` with
 * the hex MD5 of each 100 MiB part (bigger parts when 10 000 would not hold it), W&B answers
 * with one signed URL per part, each part is PUT with its `Content-MD5`, and the ETags storage
 * returns complete the upload through `completeMultipartUploadArtifact`. Object stores cap a
 * single upload (S3 at 5 GiB), which is why one PUT cannot carry such a file. Parts are read
 * from the held file one at a time: memory stays constant.
 */
import { InferloopError } from "../../core/errors.js";
import type { HttpClient } from "../../core/http-client.js";
import type { RequestOptions } from "../../core/options.js";
import { runGraphQL } from "../graphql.js";
import { base64Bytes } from "./bytes.js";
import type { HeldBytes } from "./local-files.js";
import { createMd5 } from "./md5.js";
import { completeMultipartUpload, type FileSlot, type UploadPart } from "./operations.js";
import { putPartToStorage } from "./storage.js";

const MiB = 1024 * 1024;
/** W&B's threshold (Go `S3MinMultiUploadSize`, Python `MIN_MULTI_UPLOAD_SIZE`). */
export const MULTIPART_THRESHOLD = 2 * 1024 * MiB;
/** W&B's part size (Go `S3DefaultChunkSize`). */
export const MULTIPART_PART_SIZE = 100 * MiB;
/** S3's bounds: parts of at least 5 MiB but the last, at most 5 GiB, at most 10 000 of them. */
export const MIN_PART_SIZE = 5 * MiB;
export const MAX_PART_SIZE = 5 * 1024 * MiB;
const MAX_PARTS = 10_000;

/** When and how a file is uploaded in parts (`multipart` of the upload's parameters). */
export interface MultipartSettings {
  threshold: number;
  partSize: number;
}

/** The part size for a file of `size` bytes, or undefined when it goes in one PUT. Like W&B's
 * Go client: the default size unless more than 10 000 parts would be needed, then the size
 * that fits in 10 000, rounded up to 4 KiB; an empty file is never sent in parts. */
export function partSizeFor(size: number, settings: MultipartSettings): number | undefined {
  if (size === 0 || size < settings.threshold) return undefined;
  if (size <= settings.partSize * MAX_PARTS) return settings.partSize;
  return Math.ceil(Math.ceil(size / MAX_PARTS) / 4096) * 4096;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** Each part's number (from 1) and hex MD5, read part by part. */
export async function partDigests(held: HeldBytes, partSize: number): Promise<UploadPart[]> {
  const parts: UploadPart[] = [];
  for (let start = 0, n = 1; start < held.size; start += partSize, n++) {
    const h = createMd5();
    for await (const chunk of held.slice(start, Math.min(start + partSize, held.size)).stream()) h.update(chunk);
    parts.push({ partNumber: n, hexMD5: hex(h.digest()) });
  }
  return parts;
}

const hexToBase64 = (h: string) => base64Bytes(Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16)));

/**
 * PUTs each part to its URL (each retried on its own, with only `Content-MD5`, `Content-Length`
 * and W&B's `Content-Type`, as W&B's clients send them), then completes the upload with the
 * parts' ETags. Throws a `StorageRequestError` when a part cannot be stored.
 */
export async function uploadInParts(
  http: HttpClient,
  slot: FileSlot & { multipart: NonNullable<FileSlot["multipart"]> },
  held: HeldBytes,
  parts: readonly UploadPart[],
  partSize: number,
  options: RequestOptions | undefined,
): Promise<void> {
  const { uploadId, parts: urls } = slot.multipart;
  const numbers = urls.map((u) => u.partNumber).sort((a, b) => a - b);
  if (urls.length !== parts.length || numbers.some((n, i) => n !== i + 1) || slot.storagePath === null)
    throw new InferloopError(
      `W&B answered a ${parts.length}-part upload with ${urls.length} part URLs${slot.storagePath === null ? " and no storage path" : ""}; nothing was committed.`,
    );
  const contentType = slot.uploadHeaders
    .map((h) => /^\s*content-type\s*:(.*)$/i.exec(h)?.[1]?.trim())
    .find((v) => v !== undefined);
  const completed: UploadPart[] = [];
  // One part at a time, as W&B's Python client does: the file uploads beside up to three others.
  for (const { partNumber, uploadUrl } of [...urls].sort((a, b) => a.partNumber - b.partNumber)) {
    const start = (partNumber - 1) * partSize;
    const body = held.slice(start, Math.min(start + partSize, held.size));
    // Content-Length is the body's own (the transport sends it).
    const headers: Record<string, string> = { "content-md5": hexToBase64(parts[partNumber - 1]!.hexMD5) };
    if (contentType) headers["content-type"] = contentType;
    const etag = await putPartToStorage(http, uploadUrl, headers, body, options?.signal);
    completed.push({ partNumber, hexMD5: etag });
  }
  await runGraphQL(
    http,
    completeMultipartUpload,
    {
      completeMultipartAction: "Complete",
      completedParts: completed,
      artifactID: slot.birthArtifactId,
      storagePath: slot.storagePath,
      uploadID: uploadId,
    },
    options,
  );
}
