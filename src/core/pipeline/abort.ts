import { APIConnectionTimeoutError, APIUserAbortError } from "../errors/errors.js";

/** The one wording of an abort, whether a request or a stream was aborted. */
export const ABORTED_MESSAGE = "Request was aborted.";

/** `AbortSignal.timeout()` aborts with a `DOMException` named `TimeoutError`; so may a caller's own controller. */
function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === "object" && reason !== null && (reason as { name?: unknown }).name === "TimeoutError";
}

/**
 * The error for an abort with `reason` (the signal's `reason`, or what `stream.abort(reason)`
 * was given): a timeout signal (`AbortSignal.timeout()`) is a timeout, anything else the
 * caller's abort. The reason is kept as `cause`; `fallbackCause` (the transport's own error)
 * stands in when there is none.
 */
export function abortError(reason: unknown, fallbackCause?: unknown): APIUserAbortError | APIConnectionTimeoutError {
  if (isTimeoutReason(reason))
    return new APIConnectionTimeoutError(
      "Request timed out: the request's `signal` timed out (AbortSignal.timeout()).",
      {
        cause: reason,
      },
    );
  const cause = reason ?? fallbackCause;
  return new APIUserAbortError(ABORTED_MESSAGE, cause === undefined ? undefined : { cause });
}

/** {@link abortError} for an aborted signal. */
export function signalAbortError(
  signal: AbortSignal | null | undefined,
  fallbackCause?: unknown,
): APIUserAbortError | APIConnectionTimeoutError {
  return abortError(signal?.reason, fallbackCause);
}

/** An inner controller tied to a caller's signal; see {@link linkedAbort}. */
export interface LinkedAbort {
  readonly controller: AbortController;
  /** Stops listening to the caller's signal: call it when the work ends. */
  unlink(): void;
}

const noop = () => {};

/**
 * A controller for work that also stops on its own (a deadline, a failed sibling, a finished
 * run) and must stop when the caller's signal aborts: it aborts with the caller's reason (or
 * with what `reason` makes of it), at once when that signal is already aborted. `unlink()`
 * removes the listener, so a long-lived caller's signal collects none.
 */
export function linkedAbort(
  outer: AbortSignal | null | undefined,
  reason: (outerReason: unknown) => unknown = (r) => r,
): LinkedAbort {
  const controller = new AbortController();
  if (outer == null) return { controller, unlink: noop };
  if (outer.aborted) {
    controller.abort(reason(outer.reason));
    return { controller, unlink: noop };
  }
  const onAbort = () => controller.abort(reason(outer.reason));
  outer.addEventListener("abort", onAbort, { once: true });
  return { controller, unlink: () => outer.removeEventListener("abort", onAbort) };
}
