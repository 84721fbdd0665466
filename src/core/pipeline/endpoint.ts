/**
 * An endpoint, declared once: what it is called, where it lives, who serves it, whether it may
 * be sent twice, what it takes, what it checks before sending and how its answer is read (one
 * JSON value, a stream of events, or pages of rows). Resources declare their endpoints with
 * {@link endpoint} and call them with {@link callEndpoint}, or with `offsetList` /
 * `cursorList` for the ones that declare `page`; the pipeline, telemetry, logs and refusals
 * read everything else from here.
 *
 * @module
 */
import type { $ZodIssue, $ZodType } from "zod/v4/core";
import { type InputIssue, validateInput, validateRequestBody } from "../checks/input-checks.js";
import { type Finding, warnFindings } from "../errors/findings.js";
import type { Redactor } from "../errors/secrets.js";
import type { Paging } from "../lists/paging.js";
import { APIPromise, type WithResponse } from "./api-promise.js";
import type { APIResponse, HttpClient } from "./http-client.js";
import type { RequestOptions } from "./options.js";
import { pathSegment, plainPathSegment } from "./path-segment.js";
import type { EndpointIdentity, RequestHooks, RequestSpec } from "./request-spec.js";

export type { ErrorHint, Service } from "./request-spec.js";

import { withExtraBody } from "./extra-body.js";

/** The `{name}`s of a path literal: `"/a/{queueId}/b/{itemId}"` gives `"queueId" | "itemId"`. */
export type PathNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathNames<Rest>
  : never;

/** The arguments a path's `{name}`s are filled from, typed by the path literal. */
export type PathArguments<Path extends string> = { readonly [Name in PathNames<Path>]: string };

/**
 * Reads a successful response into the result. `spec` is the request it answers: its
 * `operation` names the response in errors (`training_jobs.create response`).
 */
export type Reader<Result> = (res: APIResponse, spec: RequestSpec) => Promise<Result> | Result;

/**
 * A body that needs more than its schema. The request is built once, in this order: the
 * parameters are checked (`schema`, or `check` in its place), `prepare` makes what is sent,
 * `extraBody` is merged in, then `review` sees the body exactly as it will go out.
 */
export interface BodyStep<Params, Checked, Body> {
  schema: $ZodType<unknown, Params>;
  /** Operation-specific hints on top of the schema's issues (a "did you mean" for a key). */
  issues?(issues: readonly $ZodIssue[]): InputIssue[];
  /**
   * Checks the parameters in place of the schema, for a body checked while it is copied (a
   * training job's trajectories). Throws `RequestValidationError` worded with `what`.
   */
  check?(params: unknown, what: string): Checked;
  /** What is sent, made from what was checked (chat's defaults, a training job's JSON text). */
  prepare?(checked: Checked, params: Params): Body;
  /**
   * Body members that `extraBody` merges into member by member instead of replacing
   * (`experimental_config`: a setting newer than the SDK joins the checked ones).
   */
  merges?: readonly string[];
  /** The prepared body holds parts already written as JSON text: sent in pieces. */
  inPieces?: boolean;
  /**
   * Looks at the request as it will be sent (`extraBody` merged): throws a refusal that only
   * the whole request can decide (a job that would train nothing), or returns the mistakes that
   * cannot throw (an ignored filter, rewards that teach nothing), said once by the findings rule.
   */
  review?(checked: Checked, sent: Body, what: string): readonly Finding[] | undefined;
}

/** What a streamed answer's reader is given besides the response. */
export interface StreamContext<Params> {
  /** The caller's parameters as written (a response format's parser lives there). */
  params: Params;
  signal: AbortSignal | undefined;
  redactor: Redactor;
}

/** A streamed (SSE) answer, chosen when the body asks for one. */
export interface StreamedAnswer<Params, Body, Result> {
  when(body: Body): boolean;
  read(res: APIResponse, context: StreamContext<Params>): Result;
}

/** The needs of one or two endpoints, kept out of every other declaration. */
export interface EndpointHooks<Params, Body, Result> extends RequestHooks {
  /**
   * Path arguments are refused when they are not plain path segments (no id the server issues
   * has `/`, `%`, spaces or controls); `true` percent-encodes them instead.
   */
  encodePathArguments?: boolean;
  /** Reads the answer when the body asks for a stream instead. */
  streamed?: StreamedAnswer<Params, Body, Result>;
  /**
   * Takes over the sending of a checked body when it returns a promise (a running capture sends
   * a chat call as its own and records it); `undefined` lets the call go out as usual.
   */
  around?(body: Body, send: (body: Body) => Promise<WithResponse<Result>>): Promise<WithResponse<Result>> | undefined;
}

/** What a wire module declares about one endpoint. */
export interface EndpointDeclaration<Path extends string, Params, Checked, Body, Result> extends EndpointIdentity {
  /** Under the service's base URL; each `{name}` is filled from the call's path arguments. */
  readonly path: Path;
  /**
   * The JSON body: a schema the parameters are copied into plain JSON and checked against, or
   * a {@link BodyStep} when the body needs more than that.
   */
  readonly body?: $ZodType<Checked, Params> | BodyStep<Params, Checked, Body>;
  /** Query parameters: a schema the parameters are checked against; set members are sent. */
  readonly query?: $ZodType<unknown, Params>;
  /** Reads a successful JSON answer (any endpoint without `page`). */
  readonly read?: Reader<Result>;
  /** For lists: how pages are asked for and where their rows are; `Result` is one row. */
  readonly page?: Paging<Result>;
  readonly hooks?: EndpointHooks<Params, Body, Result>;
}

/**
 * A declared endpoint. Its type carries the path (for typed path arguments), the parameters
 * and the result (a list's row) to the resource methods that call it.
 */
export type Endpoint<Path extends string = string, Params = unknown, Result = unknown> = Readonly<
  EndpointDeclaration<Path, Params, unknown, unknown, Result>
>;

/**
 * Declares an endpoint. The parameters' type is inferred from the body (or query) schema's
 * input and the result's from the reader (or the page's rows), so a declaration names neither.
 */
export function endpoint<
  const Path extends string,
  Result,
  Params = undefined,
  Checked = Params,
  Body = Checked,
  Page extends Paging<Result> | undefined = undefined,
>(
  declaration: EndpointDeclaration<Path, Params, Checked, Body, Result> & { page?: Page },
): Endpoint<Path, Params, Result> & { readonly page: Page } {
  return declaration as Endpoint<Path, Params, Result> & { readonly page: Page };
}

/** The arguments of one call: the path's `{name}`s (when it has any), the parameters, extra headers. */
export type EndpointCall<Path extends string, Params> = {
  params?: Params;
  headers?: Record<string, string | undefined>;
} & ([PathNames<Path>] extends [never] ? { pathArguments?: undefined } : { pathArguments: PathArguments<Path> });

const PLACEHOLDER = /\{(\w+)\}/g;

function fillPath(ep: Endpoint, args: Record<string, unknown> | undefined, what: string): string {
  if (!ep.path.includes("{")) return ep.path;
  const segment = ep.hooks?.encodePathArguments ? pathSegment : plainPathSegment;
  return ep.path.replace(PLACEHOLDER, (_, name: string) => segment(args?.[name], name, what));
}

function queryString(params: unknown): string {
  if (typeof params !== "object" || params === null) return "";
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null) q.set(key, String(value));
  const text = q.toString();
  return text === "" ? "" : `?${text}`;
}

/** The body to send: checked, prepared, `extraBody` merged, then reviewed (see {@link BodyStep}). */
function builtBody(ep: Endpoint, params: unknown, what: string, http: HttpClient, extraBody: unknown): unknown {
  const shape = ep.body as $ZodType | BodyStep<unknown, unknown, unknown>;
  // A zod schema carries `_zod`; a step is a plain object with `schema`.
  const step = "_zod" in shape ? undefined : (shape as BodyStep<unknown, unknown, unknown>);
  const checked = step?.check
    ? step.check(params, what)
    : validateRequestBody(step ? step.schema : (shape as $ZodType), params, what, step?.issues);
  const prepared = step?.prepare ? step.prepare(checked, params) : checked;
  // The client's default extraBody, then the call's own, merged before the review sees the body.
  const sent = withExtraBody(prepared, http.config.extraBody, extraBody, ep.operation, step?.merges);
  if (step?.review !== undefined) warnFindings(http.config.log, ep.operation, step.review(checked, sent, what));
  return sent;
}

/**
 * The request of one call, checked: path arguments and parameters are validated here, so a
 * refusal ({@link RequestValidationError}) is thrown before anything is sent, and findings are
 * said.
 */
function endpointRequest(
  http: HttpClient,
  ep: Endpoint,
  call: { pathArguments?: object | undefined; params?: unknown; headers?: Record<string, string | undefined> },
  options: RequestOptions | undefined,
): RequestSpec {
  // Refusals name the operation: "Invalid training_jobs.events.list request: …".
  const what = `${ep.operation} request`;
  let path = fillPath(ep, call.pathArguments as Record<string, unknown> | undefined, what);
  const body = ep.body === undefined ? undefined : builtBody(ep, call.params, what, http, options?.extraBody);
  if (ep.query !== undefined) path += queryString(validateInput(ep.query, call.params ?? {}, what));
  const fixed = ep.hooks?.headers;
  const headers = fixed === undefined ? call.headers : { ...fixed, ...call.headers };
  const { operation, method, service, retry, creates, hooks } = ep;
  const inPieces = ep.body !== undefined && "inPieces" in ep.body && ep.body.inPieces === true;
  return { operation, method, service, retry, creates, hooks, path, body, headers, bodyInPieces: inPieces };
}

function send<Params, Result>(
  http: HttpClient,
  ep: Endpoint<string, Params, Result>,
  spec: RequestSpec,
  params: Params,
  options: RequestOptions | undefined,
): Promise<WithResponse<Result>> {
  const streamed = ep.hooks?.streamed;
  if (streamed?.when(spec.body)) {
    const context = { params, signal: options?.signal, redactor: http.config.redactor };
    return http.request(
      { ...spec, headers: { ...spec.headers, accept: "text/event-stream" }, stream: true },
      options,
      (res) => streamed.read(res, context),
      "streamed",
    );
  }
  return http.request(spec, options, ep.read as Reader<Result>);
}

/**
 * Calls an endpoint that answers once (buffered JSON, or a stream when it declares one):
 * validates, says its findings, sends with the pipeline's retries, reads the answer. A refusal
 * rejects the returned promise; nothing is sent.
 */
export function callEndpoint<Path extends string, Params, Result>(
  http: HttpClient,
  ep: Endpoint<Path, Params, Result> & { page?: undefined },
  call: EndpointCall<Path, NoInfer<Params>>,
  options: RequestOptions | undefined,
): APIPromise<Result> {
  let spec: RequestSpec;
  try {
    spec = endpointRequest(http, ep, call, options);
  } catch (err) {
    return new APIPromise(Promise.reject(err));
  }
  const params = call.params as Params;
  const around = ep.hooks?.around?.(spec.body, (body) =>
    send(http, ep, body === spec.body ? spec : { ...spec, body }, params, options),
  );
  return new APIPromise(around ?? send(http, ep, spec, params, options));
}

/**
 * The first request of a list, checked when the list is made: a refusal is kept for its first
 * iteration to throw (a list sends nothing until it is read).
 */
export function firstListRequest(
  http: HttpClient,
  ep: Endpoint,
  call: { pathArguments?: object | undefined; params?: unknown; headers?: Record<string, string | undefined> },
  options: RequestOptions | undefined,
): { first: RequestSpec | undefined; invalid: Error | undefined } {
  try {
    return { first: endpointRequest(http, ep, call, options), invalid: undefined };
  } catch (err) {
    return { first: undefined, invalid: err as Error };
  }
}
