/**
 * What a response looked like, for callers who need more than the parsed data.
 */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  /**
   * The response's `x-request-id`. vLLM sends none unless started with
   * `--enable-request-id-headers` (the body's `id`, `chatcmpl-<request id>`, is always there).
   */
  requestId: string | undefined;
}

/** The parsed data together with its {@link ResponseInfo}. */
export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/**
 * A promise of the parsed result that also offers `.withResponse()` for the status and
 * headers. The work runs once, whichever is awaited. A failure is only reported to a consumer
 * that awaits it, so awaiting `withResponse()` alone never leaves an unhandled rejection
 * behind (anthropic-sdk-typescript#829).
 *
 * @example
 * ```ts
 * const list = await client.models.list();
 * const { data, response } = await client.models.list().withResponse();
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#result = result;
    // Consumers attach their own handlers below; this one only marks the source as handled.
    result.catch(() => {});
  }

  // `then` on a subclass would otherwise construct an APIPromise with an executor.
  static override get [Symbol.species]() {
    return Promise;
  }

  /**
   * The parsed data with the response's status, headers and request id.
   *
   * @example
   * ```ts
   * const { data, response } = await client.models.list().withResponse();
   * console.log(response.status, response.requestId, data.data.length);
   * ```
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  /**
   * @internal The same call's result made into another (a handle around a created model, a
   * parsed reply), keeping its response: a failure nobody awaits stays as harmless as before.
   */
  _map<U>(transform: (data: T) => U | Promise<U>): APIPromise<U> {
    return new APIPromise(this.#result.then(async ({ data, response }) => ({ data: await transform(data), response })));
  }

  /** @internal A call refused before sending: rejects with `err`, sends nothing. */
  static _refused(err: unknown): APIPromise<never> {
    return new APIPromise(Promise.reject(err));
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a Promise; then() is how it stays lazy
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One reaction, not two chained: `onrejected` still sees only the request's failure.
    return this.#result.then(onfulfilled ? (r) => onfulfilled(r.data) : (r) => r.data as T & R1, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}
