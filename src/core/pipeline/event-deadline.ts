import { APIConnectionTimeoutError } from "../errors/errors.js";

// setTimeout fires at once for delays past 2^31 - 1 ms; longer waits are as good as none.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Bound the wait for each batch of decoded events (SSE data events, JSONL records) to
 * `eventTimeout` ms, the first one counted from `since` (the response headers). Only a batch
 * resets the clock: keep-alive comments, blank lines and partial bytes never reach this level.
 * The clock runs only while the consumer waits: a slow consumer is not a silent server. (A
 * batch is one network read, not one event, so a timer per wait costs little.)
 *
 * On expiry `cancel` closes the request, which makes the pending read fail on either
 * transport (even over a `fetch` that ignores its signal); that failure is reported as an
 * `APIConnectionTimeoutError` naming `eventTimeout`. `eventTimeout: 0` means no limit.
 */
export async function* withEventDeadline<T>(
  source: AsyncIterable<T>,
  limits: { eventTimeout: number; since: number },
  cancel: () => void,
  what: string,
): AsyncGenerator<T> {
  const limit = limits.eventTimeout;
  if (!(limit > 0)) return yield* source;
  let timedOut = false;
  const onTimer = () => {
    timedOut = true;
    cancel();
  };
  const expired = (cause: unknown) =>
    new APIConnectionTimeoutError(`No ${what} for ${limit} ms (eventTimeout); the request was closed.`, { cause });
  const iterator = source[Symbol.asyncIterator]();
  let first = true;
  try {
    for (;;) {
      // The timer exists only during a wait, so a stream left unread holds no timer.
      const wait = first ? limit - (Date.now() - limits.since) : limit;
      first = false;
      const timer = setTimeout(onTimer, Math.min(Math.max(wait, 0), MAX_TIMER_MS));
      let r: IteratorResult<T>;
      try {
        r = await iterator.next();
      } catch (err) {
        throw timedOut ? expired(err) : err;
      } finally {
        clearTimeout(timer);
      }
      // A transport may end the body quietly when it is closed: still a timeout, not an end.
      if (timedOut) throw expired(undefined);
      if (r.done) return;
      yield r.value;
    }
  } finally {
    if (!timedOut) await iterator.return?.();
  }
}
