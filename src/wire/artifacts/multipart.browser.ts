// The browser build's multipart.ts: every file goes in one PUT, so the bundle carries no part
// uploads (W&B's threshold is 2 GiB, beyond what a page uploads) and `multipart` has no effect.
// A file over S3's single-PUT limit is refused once read, before anything is sent.
import { InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { FileSlot } from "./file-slot.js";
import type { HeldBytes } from "./local-files.js";
import type { PartPlan } from "./multipart.js";
import { putToStorage } from "./storage.js";

export type { PartPlan, UploadPart } from "./multipart.js";

/** S3's limit on one PUT (`PutObject`): 5 GiB. */
const SINGLE_PUT_LIMIT = 5 * 1024 * 1024 * 1024;

/**
 * Refuses, before anything is sent, a file larger than one PUT may carry: this build sends every
 * file in one PUT, and storage would refuse it after W&B had been asked to make the version.
 */
export function checkHeldSizes(held: readonly HeldBytes[], _multipart?: unknown): void {
  const issues = held.flatMap((h, i) =>
    h.size > SINGLE_PUT_LIMIT
      ? [
          {
            path: `files.${i}.data`,
            message: `is ${h.size} bytes, over S3's single-PUT limit (5 GiB), and the browser build sends each file in one PUT: upload it from Node, which sends big files as a multipart upload`,
            code: "custom",
          },
        ]
      : [],
  );
  if (issues.length > 0) throw new RequestValidationError(issues, "artifacts.upload request");
}

/** No part URLs are asked for. */
export const MULTIPART_FIELDS = "";

/** The setting has no effect here: nothing to refuse. */
export function checkMultipart(): void {}

/** No file goes in parts here. */
export async function planParts(): Promise<Map<number, PartPlan>> {
  return new Map();
}

/** Sends the file in one PUT. */
export async function sendFile(
  http: HttpClient,
  slot: FileSlot,
  held: HeldBytes,
  _plan: unknown,
  options: RequestOptions | undefined,
): Promise<void> {
  if (slot.uploadUrl === null)
    throw new InferloopError("W&B answered a file with no upload URL; nothing was committed.");
  return putToStorage(http, slot.uploadUrl, slot.uploadHeaders, held.body, options?.signal);
}
