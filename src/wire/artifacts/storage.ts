/**
 * Requests to the signed storage URLs W&B hands out. They go through the client's transport
 * directly, never through the request pipeline: the pipeline adds the client's Authorization
 * and default headers, and the W&B key must never reach a storage host (W&B's own clients send
 * storage only the `uploadHeaders` W&B returned: wandb/wandb `httplayers.LimitTo`). A signed URL is a
 * credential too, so no message or log line carries more of it than its origin.
 */

import { APIConnectionError, APIUserAbortError, InferloopError } from "../../core/errors/errors.js";
import { signalAbortError } from "../../core/pipeline/abort.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import { backoffMs, sleep } from "../../core/pipeline/retry.js";
import type { StreamedBody, TransportResponse } from "../../core/transport/types.js";

/**
 * A request to a signed storage URL failed; `status` when storage answered (403: the URL expired).
 */
export class StorageRequestError extends InferloopError {
  override name = "StorageRequestError";
  readonly status: number | undefined;
  constructor(message: string, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
  }
}

/** `"Key:Value"` strings as W&B sends them, split at the first `:` (the value trimmed, as W&B's
 * Go client does). */
export function parseUploadHeaders(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(":");
    if (i <= 0) continue;
    out[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  // Whatever W&B returned, storage is never sent a credential of this client's.
  delete out.authorization;
  return out;
}

function target(url: string): { origin: string; path: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StorageRequestError("W&B returned a storage URL that is not a URL.");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw new StorageRequestError(`W&B returned a storage URL with the scheme ${u.protocol}, not http(s).`);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}

/** Storage statuses worth another attempt with the same URL (W&B's clients: 408, 429, 5xx but 501). */
const retryable = (status: number) => status === 408 || status === 429 || (status >= 500 && status !== 501);

async function send(
  http: HttpClient,
  method: "PUT" | "GET",
  url: string,
  headers: Record<string, string>,
  body: StreamedBody | undefined,
  signal: AbortSignal | undefined,
): Promise<TransportResponse> {
  const cfg = http.config;
  const { origin, path } = target(url);
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw signalAbortError(signal);
    let failure: StorageRequestError;
    try {
      const res = await cfg.transport.send({
        method,
        origin,
        path,
        headers,
        body,
        signal,
        timeout: cfg.timeout,
        idleTimeout: cfg.idleTimeout,
        compress: false,
      });
      if (res.status >= 200 && res.status < 300) return res;
      // The head of storage's own error document (S3/GCS XML) says why; never the URL.
      const { text } = await res.text(2048).catch(() => ({ text: "" }));
      const why = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1] ?? "";
      failure = new StorageRequestError(
        `${method} to storage at ${origin} failed with status ${res.status}${why ? `: ${why}` : ""}.`,
        res.status,
      );
      if (!retryable(res.status) || attempt >= cfg.maxRetries) throw failure;
    } catch (err) {
      if (err instanceof StorageRequestError) throw err;
      if (err instanceof APIUserAbortError || !(err instanceof APIConnectionError) || signal?.aborted) throw err;
      failure = new StorageRequestError(`${method} to storage at ${origin} failed: ${err.message}`, undefined, err);
      if (attempt >= cfg.maxRetries) throw failure;
    }
    if (cfg.log.enabled("warn"))
      cfg.log.write("warn", `storage: ${method} at ${origin} failed (${failure.message}); retrying`);
    await sleep(backoffMs(attempt), signal);
  }
}

/** PUTs `body` to a signed upload URL with only W&B's `uploadHeaders`; retried on 408/429/5xx
 * and connection failures. */
export async function putToStorage(
  http: HttpClient,
  url: string,
  uploadHeaders: readonly string[],
  body: StreamedBody,
  signal: AbortSignal | undefined,
): Promise<void> {
  const res = await send(http, "PUT", url, parseUploadHeaders(uploadHeaders), body, signal);
  // Read to its end (storage answers a PUT with an empty or tiny body), so the connection is reused.
  await res.text(64 * 1024).catch(() => undefined);
}

/** PUTs one part of a multipart upload with exactly `headers` (retried like any PUT) and
 * returns the ETag storage gave it, which completes the upload. */
export async function putPartToStorage(
  http: HttpClient,
  url: string,
  headers: Record<string, string>,
  body: StreamedBody,
  signal: AbortSignal | undefined,
): Promise<string> {
  const res = await send(http, "PUT", url, headers, body, signal);
  await res.text(64 * 1024).catch(() => undefined);
  const etag = res.headers.etag;
  if (!etag) throw new StorageRequestError(`PUT to storage at ${target(url).origin} returned no ETag for the part.`);
  return etag;
}

/** GETs a signed download URL with no credentials; the caller reads (or cancels) the body. */
export function getFromStorage(http: HttpClient, url: string, signal: AbortSignal | undefined) {
  return send(http, "GET", url, {}, undefined, signal);
}
