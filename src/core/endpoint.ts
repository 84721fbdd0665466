/**
 * An endpoint, declared once: what it is called, where it lives, who serves it, whether it may
 * be sent twice, what it takes and how its answer is read. Resources declare their endpoints
 * with {@link endpoint} and call them with {@link callEndpoint} (or a list runner built on
 * {@link endpointRequest}); the pipeline, telemetry and logs read everything else from here.
 *
 * @module
 */
import type { $ZodIssue, $ZodType } from "zod/v4/core";
import { APIPromise } from "./api-promise.js";
import type { APIResponse, HttpClient } from "./http-client.js";
import type { RequestOptions } from "./options.js";
import { pathSegment, plainPathSegment } from "./path-segment.js";
import type { ErrorHint, RequestSpec, RetryPolicy, Service } from "./request-spec.js";
import { type InputIssue, validateInput, validateRequestBody } from "./validate.js";

export type { ErrorHint, Service } from "./request-spec.js";

/** How an endpoint turns the caller's parameters into what is sent. */
type Shape<Params, Out> =
  | $ZodType<Out>
  /** For bodies that need more than a schema (chat's defaults, a training job's copy). */
  | ((params: Params) => Out);

/** What a resource declares about one endpoint. */
export interface EndpointDeclaration<Params, Body, Result> {
  /**
   * `training_jobs.events.list`: the SDK method's path in snake_case. It names the telemetry
   * span, the debug log lines and the API reference page; ids never appear in it.
   */
  operation: string;
  method: RequestSpec["method"];
  /** Under the service's base URL; each `{name}` is filled from the call's path arguments. */
  path: string;
  /**
   * `inference`: `baseURL` and Bearer auth. `trace`: `traceBaseURL` and Basic auth. `training`:
   * `trainingBaseURL` and Bearer auth. `wandb`: `wandbBaseURL` and Basic `api:<key>`.
   */
  service: Service;
  retry: RetryPolicy;
  /** With `retry: "unsent-only"`: what a second attempt could create twice ("training job"). */
  creates?: string;
  /**
   * The GenAI semantic-convention operation (`chat`), when there is one: the span is then named
   * `{genAiOperation} {model}` as that convention asks, instead of by `operation`.
   */
  genAiOperation?: string;
  /**
   * Path arguments are `plain` by default: an id holding `/`, `%`, spaces or controls is refused
   * (no id the server issues has one). `encoded` percent-encodes them instead.
   */
  pathArguments?: "plain" | "encoded";
  /** The JSON body: a schema the parameters are copied into plain JSON and checked against. */
  body?: Shape<Params, Body>;
  /** Query parameters: a schema the parameters are checked against; set members are sent. */
  query?: $ZodType<Params>;
  /** Operation-specific hints on top of the schema's issues (a "did you mean" for a key). */
  issues?: (issues: readonly $ZodIssue[]) => InputIssue[];
  /** The body holds parts already written as JSON text: sent in pieces (see `RequestSpec`). */
  bodyInPieces?: boolean;
  /**
   * What the user can do about an error answer the server words in a known way: when `match`
   * finds the server's message (of `status`, when given), `hint` is added after it.
   */
  errorHints?: readonly ErrorHint[];
  /** Body members `extraBody` merges into member by member (see `RequestSpec`). */
  extraBodyMerges?: readonly string[];
  /** Reads a successful response into the result. */
  read: (res: APIResponse) => Promise<Result> | Result;
}

/**
 * A declared endpoint. The type parameters carry its parameters, body and result to the
 * resource method that calls it.
 */
export type Endpoint<Params = unknown, Body = unknown, Result = unknown> = Readonly<
  EndpointDeclaration<Params, Body, Result>
>;

/** Declares an endpoint: the declaration, typed for the methods that call it. */
export function endpoint<Params = undefined, Body = Params, Result = unknown>(
  declaration: EndpointDeclaration<Params, Body, Result>,
): Endpoint<Params, Body, Result> {
  return declaration;
}

/** The arguments of one call: the path's `{name}`s, the parameters, extra headers. */
export interface EndpointCall<Params> {
  pathArguments?: Record<string, unknown>;
  params?: Params;
  headers?: Record<string, string | undefined>;
}

const PLACEHOLDER = /\{(\w+)\}/g;

function fillPath(ep: Endpoint<never, unknown, unknown>, args: Record<string, unknown> | undefined): string {
  if (!ep.path.includes("{")) return ep.path;
  const segment = ep.pathArguments === "encoded" ? pathSegment : plainPathSegment;
  return ep.path.replace(PLACEHOLDER, (_, name: string) => segment(args?.[name], name));
}

function queryString(params: unknown): string {
  if (typeof params !== "object" || params === null) return "";
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null) q.set(key, String(value));
  const text = q.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * The request of one call, checked: path arguments and parameters are validated here, so a
 * refusal ({@link RequestValidationError}) is thrown before anything is sent.
 */
export function endpointRequest<Params, Body>(
  ep: Endpoint<Params, Body, unknown>,
  call: EndpointCall<Params>,
): RequestSpec {
  // Refusals name the operation: "Invalid training_jobs.events.list request: limit: …".
  const what = `${ep.operation} request`;
  let path = fillPath(ep as Endpoint<never, unknown, unknown>, call.pathArguments);
  const body =
    ep.body === undefined
      ? undefined
      : typeof ep.body === "function"
        ? (ep.body as (params: Params) => Body)(call.params as Params)
        : validateRequestBody(ep.body, call.params, what, ep.issues);
  if (ep.query !== undefined) path += queryString(validateInput(ep.query, call.params ?? {}, what, ep.issues));
  // The declaration's own members (operation, method, service, retry, ...) are the spec's; the
  // schema members it also carries are never read from a spec.
  return { ...(ep as unknown as RequestSpec), path, body, headers: call.headers };
}

/**
 * Calls a buffered endpoint: validates, sends with the pipeline's retries, reads the answer.
 * A refusal rejects the returned promise; nothing is sent.
 */
export function callEndpoint<Params, Body, Result>(
  http: HttpClient,
  ep: Endpoint<Params, Body, Result>,
  call: EndpointCall<Params>,
  options: RequestOptions | undefined,
): APIPromise<Result> {
  let spec: RequestSpec;
  try {
    spec = endpointRequest(ep, call);
  } catch (err) {
    return new APIPromise(Promise.reject(err));
  }
  return new APIPromise(http.request(spec, options, ep.read));
}

/**
 * The first request of a list, checked when the list is made: a refusal is kept for its first
 * iteration to throw (a list sends nothing until it is read).
 */
export function firstListRequest<Params>(
  ep: Endpoint<Params, unknown, unknown>,
  call: EndpointCall<Params>,
): { first: RequestSpec | undefined; invalid: Error | undefined } {
  try {
    return { first: endpointRequest(ep, call), invalid: undefined };
  } catch (err) {
    return { first: undefined, invalid: err as Error };
  }
}
