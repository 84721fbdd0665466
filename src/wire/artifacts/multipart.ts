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

import { expectObject, shapeError } from "../../core/decoding/response-checks.js";
import { InferloopError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { graphqlEndpoint, runGraphQL } from "../graphql.js";
import { base64Bytes } from "./bytes.js";
import { hex } from "./digest.js";
import type { FileSlot } from "./file-slot.js";
import type { HeldBytes } from "./local-files.js";
import { createMd5 } from "./md5.js";
import { parseUploadHeaders, putPartToStorage, putToStorage } from "./storage.js";
import type { ArtifactUploadParams } from "./types.js";

const MiB = 1024 * 1024;
/** W&B's threshold (Go `S3MinMultiUploadSize`, Python `MIN_MULTI_UPLOAD_SIZE`). */
const MULTIPART_THRESHOLD = 2 * 1024 * MiB;
/** W&B's part size (Go `S3DefaultChunkSize`). */
const MULTIPART_PART_SIZE = 100 * MiB;
/** S3's bounds: parts of at least 5 MiB but the last, at most 5 GiB, at most 10 000 of them. */
const MIN_PART_SIZE = 5 * MiB;
const MAX_PART_SIZE = 5 * 1024 * MiB;
const MAX_PARTS = 10_000;

/** What `createArtifactFiles` asks of each file besides its single upload URL. */
export const MULTIPART_FIELDS = " uploadMultipartUrls { uploadID uploadUrlParts { partNumber uploadUrl } }";

/** Nothing to refuse once the files are read: this build sends big files in parts (the browser
 * build refuses a file too big for one PUT). */
export function checkHeldSizes(_held: readonly HeldBytes[], _multipart: ArtifactUploadParams["multipart"]): void {}

/** Refuses a `multipart` setting storage would refuse (through `add(field, message)`). */
export function checkMultipart(value: unknown, add: (path: string, message: string) => void): void {
  const m = value as { threshold?: unknown; partSize?: unknown } | undefined;
  // A size in bytes from min to max, or unset.
  const size = (v: unknown, min: number, max: number) =>
    v === undefined || (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max);
  if (m !== undefined && (typeof m !== "object" || m === null)) add("multipart", "must be { threshold?, partSize? }");
  else if (!size(m?.threshold, 1, Number.MAX_SAFE_INTEGER))
    add("multipart.threshold", "threshold must be a whole number of bytes >= 1");
  if (!size(m?.partSize, MIN_PART_SIZE, MAX_PART_SIZE))
    add("multipart.partSize", "partSize must be whole bytes from 5 MiB to 5 GiB (S3's part sizes)");
}

/** A part as W&B's schema names it (`UploadPartsInput`): announced with its MD5, completed with
 * the ETag storage returned for it (in the same `hexMD5` member, as W&B's clients send it). */
export interface UploadPart {
  partNumber: number;
  hexMD5: string;
}

/** A file to send in parts: their size, and each part's number and MD5. */
export interface PartPlan {
  partSize: number;
  parts: UploadPart[];
}

/** The part size for a file of `size` bytes, or undefined when it goes in one PUT. Like W&B's
 * Go client: the default size unless more than 10 000 parts would be needed, then the size
 * that fits in 10 000, rounded up to 4 KiB; an empty file is never sent in parts. */
function partSizeFor(size: number, multipart: ArtifactUploadParams["multipart"]): number | undefined {
  const partSize = multipart?.partSize ?? MULTIPART_PART_SIZE;
  if (size === 0 || size < (multipart?.threshold ?? MULTIPART_THRESHOLD)) return undefined;
  if (size <= partSize * MAX_PARTS) return partSize;
  return Math.ceil(Math.ceil(size / MAX_PARTS) / 4096) * 4096;
}

/** The files (by index) that go in parts, with their parts' MD5s, read part by part. */
export async function planParts(
  held: readonly HeldBytes[],
  multipart: ArtifactUploadParams["multipart"],
): Promise<Map<number, PartPlan>> {
  const plans = new Map<number, PartPlan>();
  for (const [i, h] of held.entries()) {
    const partSize = partSizeFor(h.size, multipart);
    if (partSize !== undefined) plans.set(i, { partSize, parts: await partDigests(h, partSize) });
  }
  return plans;
}

/** Each part's number (from 1) and hex MD5, read part by part. */
async function partDigests(held: HeldBytes, partSize: number): Promise<UploadPart[]> {
  const parts: UploadPart[] = [];
  for (let start = 0, n = 1; start < held.size; start += partSize, n++) {
    const h = createMd5();
    for await (const chunk of held.slice(start, Math.min(start + partSize, held.size)).stream()) h.update(chunk);
    parts.push({ partNumber: n, hexMD5: hex(h.digest()) });
  }
  return parts;
}

const hexToBase64 = (h: string) => base64Bytes(Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16)));

/** The part URLs W&B answered, checked to be one per announced part. */
function partUrls(
  slot: FileSlot,
  count: number,
): { uploadId: string; urls: Array<{ partNumber: number; uploadUrl: string }> } {
  const what = "createArtifactFiles answer";
  const at = "uploadMultipartUrls";
  const o = expectObject(slot.uploadMultipartUrls, what, at);
  const parts = o.uploadUrlParts;
  if (!Array.isArray(parts)) throw shapeError(what, `${at}.uploadUrlParts`, parts, "an array");
  const urls = parts.map((p, j) => {
    const part = expectObject(p, what, `${at}.uploadUrlParts.${j}`);
    if (typeof part.partNumber !== "number" || typeof part.uploadUrl !== "string")
      throw shapeError(what, `${at}.uploadUrlParts.${j}`, part, "{ partNumber, uploadUrl }");
    return { partNumber: part.partNumber, uploadUrl: part.uploadUrl };
  });
  urls.sort((a, b) => a.partNumber - b.partNumber);
  if (typeof o.uploadID !== "string" || urls.length !== count || urls.some((u, i) => u.partNumber !== i + 1))
    throw new InferloopError(
      `W&B answered a ${count}-part upload with ${urls.length} part URLs; nothing was committed.`,
    );
  return { uploadId: o.uploadID, urls };
}

// W&B's clients send only "Complete" (the enum of the Go client's generated schema has no
// other member) and never abort a multipart upload that failed.
export const completeMultipartUpload = graphqlEndpoint<
  {
    completeMultipartAction: "Complete";
    completedParts: UploadPart[];
    artifactID: string;
    storagePath: string;
    uploadID: string;
  },
  void
>({
  operation: "artifacts.complete_multipart_upload",
  operationName: "CompleteMultipartUploadArtifact",
  retry: "safe",
  query: `mutation CompleteMultipartUploadArtifact($completeMultipartAction: CompleteMultipartAction!, $completedParts: [UploadPartsInput!]!, $artifactID: ID!, $storagePath: String!, $uploadID: String!) {
  completeMultipartUploadArtifact(input: { completeMultipartAction: $completeMultipartAction, completedParts: $completedParts, artifactID: $artifactID, storagePath: $storagePath, uploadID: $uploadID }) { digest }
}`,
  read: (data) => {
    expectObject(
      data.completeMultipartUploadArtifact,
      "completeMultipartUploadArtifact answer",
      "completeMultipartUploadArtifact",
    );
  },
});

/**
 * Sends one file W&B gave a slot for: in parts when it was announced in parts and W&B answered
 * with part URLs, else in one PUT. Throws a `StorageRequestError` when storage refuses it.
 */
export async function sendFile(
  http: HttpClient,
  slot: FileSlot,
  held: HeldBytes,
  plan: PartPlan | undefined,
  options: RequestOptions | undefined,
): Promise<void> {
  // A server without multipart answers with only the single URL (W&B's Python client then PUTs once).
  if (plan !== undefined && slot.uploadMultipartUrls != null) return uploadInParts(http, slot, held, plan, options);
  if (slot.uploadUrl === null)
    throw new InferloopError("W&B answered a file with part URLs it was not asked for; nothing was committed.");
  return putToStorage(http, slot.uploadUrl, slot.uploadHeaders, held.body, options?.signal);
}

/**
 * PUTs each part to its URL (each retried on its own, with only `Content-MD5`, `Content-Length`
 * and W&B's `Content-Type`, as W&B's clients send them), then completes the upload with the
 * parts' ETags.
 */
async function uploadInParts(
  http: HttpClient,
  slot: FileSlot,
  held: HeldBytes,
  { partSize, parts }: PartPlan,
  options: RequestOptions | undefined,
): Promise<void> {
  const { uploadId, urls } = partUrls(slot, parts.length);
  if (slot.storagePath === null)
    throw new InferloopError("W&B answered a multipart upload with no storage path; nothing was committed.");
  const contentType = parseUploadHeaders(slot.uploadHeaders)["content-type"];
  const completed: UploadPart[] = [];
  // One part at a time, as W&B's Python client does: the file uploads beside up to three others.
  for (const { partNumber, uploadUrl } of urls) {
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
