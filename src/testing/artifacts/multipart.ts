/**
 * Multipart uploads in the fake, as W&B's schema has them (wandb core/api/graphql/
 * mutation_create_artifact_files.graphql and mutation_complete_multipart_upload_artifact.graphql)
 * over S3's semantics: a file spec of `createArtifactFiles` with `uploadPartsInput` (each part's
 * number and hex MD5) gets `uploadMultipartUrls { uploadID uploadUrlParts { partNumber uploadUrl } }`
 * beside its single `uploadUrl`; each part is PUT to its URL (its `Content-MD5` checked, its
 * ETag the quoted hex MD5, as S3 answers); `completeMultipartUploadArtifact` with
 * `completeMultipartAction: Complete` and the parts' ETags (in `hexMD5`) joins them into the
 * object. Refused as S3 refuses a CompleteMultipartUpload: a part not uploaded or with another
 * ETag (InvalidPart), parts out of order (InvalidPartOrder), a part but the last under 5 MiB
 * (EntityTooSmall); and, as the fake keys content by MD5, a joined file whose MD5 is not the one
 * announced. An upload never completed leaves no object.
 */

import { jsonResponse } from "../responses.js";
import type { ResponsePlan } from "../types.js";
import { isRecord, randomHex } from "../util.js";
import type { ArtifactStore, FakeArtifact, MultipartUpload } from "./store.js";
import { md5Base64 } from "./store.js";

const MIN_PART = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
const HEX_MD5 = /^[0-9a-f]{32}$/;

const refuse = (field: string, message: string): ResponsePlan =>
  jsonResponse(400, { data: { [field]: null }, errors: [{ message, path: [field] }] });

/** Hex of a base64 MD5. */
const b64ToHex = (b64: string) => Array.from(atob(b64), (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");

/**
 * The `uploadMultipartUrls` of a file spec announcing `parts`, or why they are refused.
 */
export function startMultipart(
  state: { artifacts: ArtifactStore },
  artifact: FakeArtifact,
  file: { name: string; key: string; md5: string },
  parts: unknown[],
  origin: string,
): { urls: Record<string, unknown> } | { problem: string } {
  if (parts.length > MAX_PARTS) return { problem: `file ${file.name}: at most ${MAX_PARTS} parts` };
  const announced = new Map<number, string>();
  for (const [i, part] of parts.entries()) {
    if (!isRecord(part) || part.partNumber !== i + 1 || typeof part.hexMD5 !== "string" || !HEX_MD5.test(part.hexMD5))
      return { problem: `file ${file.name}: uploadPartsInput.${i} must be { partNumber: ${i + 1}, hexMD5 }` };
    announced.set(i + 1, part.hexMD5);
  }
  const uploadId = randomHex(32);
  const upload: MultipartUpload = { key: file.key, md5: file.md5, birth: artifact.id, announced, stored: new Map() };
  state.artifacts.uploads.set(uploadId, upload);
  return {
    urls: {
      uploadID: uploadId,
      uploadUrlParts: [...announced.keys()].map((partNumber) => ({
        partNumber,
        uploadUrl: origin + state.artifacts.sign({ method: "PUT", key: file.key, part: { uploadId, partNumber } }),
      })),
    },
  };
}

/** Stores a part PUT to its signed URL; its ETag is the quoted hex MD5, as S3 gives a part. */
export function storePart(
  state: { artifacts: ArtifactStore },
  part: { uploadId: string; partNumber: number },
  bytes: Uint8Array,
): { etag: string } | { code: string; message: string } {
  const upload = state.artifacts.uploads.get(part.uploadId);
  if (upload === undefined) return { code: "NoSuchUpload", message: "The specified upload does not exist." };
  const hex = b64ToHex(md5Base64(bytes));
  if (upload.announced.get(part.partNumber) !== hex)
    return { code: "SignatureDoesNotMatch", message: "The part does not match the MD5 its URL was signed for." };
  const etag = `"${hex}"`;
  upload.stored.set(part.partNumber, { bytes, etag });
  return { etag };
}

/** `completeMultipartUploadArtifact`: joins the parts into the object. */
export function completeMultipart(state: { artifacts: ArtifactStore }, vars: Record<string, unknown>): ResponsePlan {
  const F = "completeMultipartUploadArtifact";
  const input = isRecord(vars.input) ? vars.input : vars;
  if (input.completeMultipartAction !== "Complete")
    return refuse(
      F,
      `Value ${JSON.stringify(input.completeMultipartAction)} does not exist in "CompleteMultipartAction" enum.`,
    );
  const uploadId = typeof input.uploadID === "string" ? input.uploadID : "";
  const upload = state.artifacts.uploads.get(uploadId);
  if (upload === undefined || input.storagePath !== upload.key)
    return refuse(F, "NoSuchUpload: the specified multipart upload does not exist");
  if (input.artifactID !== upload.birth) return refuse(F, "artifact does not match the upload");
  const listed = Array.isArray(input.completedParts) ? input.completedParts : [];
  const chunks: Uint8Array[] = [];
  for (const [i, p] of listed.entries()) {
    if (!isRecord(p) || p.partNumber !== i + 1)
      return refuse(F, "InvalidPartOrder: parts must be listed in order from 1");
    const stored = upload.stored.get(i + 1);
    if (stored === undefined || stored.etag !== p.hexMD5)
      return refuse(F, `InvalidPart: part ${i + 1} was not uploaded or its ETag does not match`);
    if (i < listed.length - 1 && stored.bytes.byteLength < MIN_PART)
      return refuse(F, "EntityTooSmall: every part but the last must be at least 5 MiB");
    chunks.push(stored.bytes);
  }
  if (listed.length !== upload.announced.size) return refuse(F, "InvalidPart: not every announced part was listed");
  const whole = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.byteLength;
  }
  if (md5Base64(whole) !== upload.md5) return refuse(F, "the joined parts do not have the file's MD5");
  state.artifacts.store(upload.key, whole, upload.birth);
  state.artifacts.uploads.delete(uploadId);
  return jsonResponse(200, { data: { [F]: { digest: upload.md5 } } });
}
