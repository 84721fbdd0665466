// The browser build's multipart.ts: every file goes in one PUT, so the bundle carries no part
// uploads (W&B's threshold is 2 GiB, beyond what a page uploads) and `multipart` has no effect.
import { InferloopError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { FileSlot } from "./file-slot.js";
import type { HeldBytes } from "./local-files.js";
import type { PartPlan } from "./multipart.js";
import { putToStorage } from "./storage.js";

export type { PartPlan, UploadPart } from "./multipart.js";

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
