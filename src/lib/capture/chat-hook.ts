import { APIUserAbortError } from "../../core/errors/errors.js";
import type { ChatResult } from "../../wire/chat/capture-slot.js";
import { ChatCompletionStream } from "../../wire/chat/stream/stream.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import type { CapturedRequest, TrajectoryRecorder } from "../trajectories/recorder.js";
import { type CaptureState, runInClient } from "./active-capture.js";

/**
 * @internal An inferloop chat call made inside a capture: sent with the capture's request
 * changes, and recorded when it completes (a stream: once read to its end) or fails.
 */
export function captureChat<B extends CapturedRequest>(
  state: CaptureState,
  body: B,
  send: (body: B) => Promise<ChatResult>,
): Promise<ChatResult> {
  const { recorder } = state;
  const sent = recorder.prepare(body);
  return runInClient(state, () => send(sent)).then(
    (result) => {
      if (result.data instanceof ChatCompletionStream) watchStream(result.data, recorder, sent);
      else recorder.record(sent, result.data);
      return result;
    },
    (err: unknown) => {
      recorder.fail(sent, err);
      throw err;
    },
  );
}

// Every way of reading a stream goes through its iterator, finalCompletion() or abort()
// (textStream, toReadableStream, `break` and `await using` call these on the instance), so
// the stream class needs no hook: this one instance gets its own three, which record the
// outcome once and defer to the class for everything else.
function watchStream(stream: ChatCompletionStream, recorder: TrajectoryRecorder, request: CapturedRequest): void {
  const proto = ChatCompletionStream.prototype;
  let settled = false;
  const succeed = (completion: Promise<ChatCompletion>): void => {
    settled = true;
    completion.then(
      (c) => recorder.record(request, c),
      (err: unknown) => recorder.fail(request, err),
    );
  };
  const fail = (err: unknown): void => {
    if (settled) return;
    settled = true;
    recorder.fail(request, err);
  };
  Object.defineProperties(stream, {
    [Symbol.asyncIterator]: {
      configurable: true,
      writable: true,
      value: async function* () {
        let finished = false;
        try {
          yield* proto[Symbol.asyncIterator].call(stream);
          finished = true;
        } catch (err) {
          fail(err);
          throw err;
        } finally {
          if (finished && !settled) succeed(proto.finalCompletion.call(stream));
        }
      },
    },
    finalCompletion: {
      configurable: true,
      writable: true,
      value: () => {
        const completion = proto.finalCompletion.call(stream);
        if (!settled) succeed(completion);
        return completion;
      },
    },
    abort: {
      configurable: true,
      writable: true,
      value: () => {
        proto.abort.call(stream);
        fail(new APIUserAbortError("The stream was aborted."));
      },
    },
  });
}
