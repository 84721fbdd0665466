/**
 * W&B's GraphQL API as endpoints: each operation is one declared endpoint (`POST /graphql` on
 * the `wandb` service, Basic `api:<key>`), and one reader turns every answer into its `data` or
 * a typed error. W&B answers a refusal with `errors` under status 400 as often as under 200
 * (wandb/wandb `core/internal/gql/`); both become errors carrying the server's GraphQL messages.
 */
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { expectObject } from "../core/decoding/response-checks.js";
import { graphqlMessages } from "../core/errors/error-body.js";
import { APIError } from "../core/errors/errors.js";
import { callEndpoint, type Endpoint, endpoint } from "../core/pipeline/endpoint.js";
import type { APIResponse, HttpClient } from "../core/pipeline/http-client.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { readObject } from "../core/pipeline/read-body.js";
import type { RetryPolicy } from "../core/pipeline/request-spec.js";

/**
 * A GraphQL answer of status 200 that carries `errors` (W&B's server words a failed mutation
 * so as often as with status 400, which becomes a `BadRequestError` with the same message).
 */
export class GraphQLError extends APIError {
  override name = "GraphQLError";
  /** The server's `errors` list as sent (`{ message, path? }` each). */
  readonly errors: readonly { message: string; path?: readonly (string | number)[] }[];
  constructor(operation: string, body: Record<string, unknown>, res: APIResponse) {
    const message = graphqlMessages(body.errors) ?? "GraphQL error";
    super({ status: res.status, headers: new Headers(res.headers), body, message: `${operation}: ${message}` });
    this.errors = (Array.isArray(body.errors) ? body.errors : []).map((e) =>
      typeof e === "string" ? { message: e } : (e as { message: string }),
    );
  }
}

/** The JSON body of a GraphQL request, as W&B's clients send it. */
export interface GraphQLBody {
  query: string;
  variables: Record<string, unknown>;
  operationName: string;
}

/** What an operation declares: its SDK name, its document, and how its `data` is read. */
export interface GraphQLOperation<Vars, Data> {
  /** `artifacts.create`: the span, log and refusal name, as for every endpoint. */
  operation: string;
  /** The document's operation name (`CreateArtifact`), sent as `operationName`. */
  operationName: string;
  query: string;
  retry: RetryPolicy;
  /** Turns the answer's `data` (checked to be an object) into the result. */
  read: (data: Record<string, unknown>) => Data;
  /** Variables are built and checked by the caller (its own schema) before this is called. */
  _vars?: Vars;
}

/** Declares a GraphQL operation as an endpoint of the `wandb` service. */
export function graphqlEndpoint<Vars extends Record<string, unknown>, Data>(op: GraphQLOperation<Vars, Data>) {
  return endpoint({
    operation: op.operation,
    method: "POST",
    path: "/graphql",
    service: "wandb",
    retry: op.retry,
    // The variables are checked by the caller's own schema before the call: sent as they are.
    body: {
      schema: variablesSchema as $ZodType<unknown, Vars>,
      check: (variables: unknown) => variables as Vars,
      prepare: (variables: Vars): GraphQLBody => ({ query: op.query, variables, operationName: op.operationName }),
    },
    read: async (res, spec): Promise<Data> => {
      const body = await readObject(res, spec);
      if (Array.isArray(body.errors) && body.errors.length > 0) throw new GraphQLError(op.operation, body, res);
      return op.read(expectObject(body.data, `${op.operation} response`, "data"));
    },
  });
}

const variablesSchema = z.record(z.string(), z.unknown());

/**
 * The value of one of W&B's `JSONString` fields (`metadata`, `config`, `summaryMetrics`): its
 * text parsed, or the value itself when a server sends it already parsed; `undefined` when the
 * text is not JSON.
 */
export function jsonStringValue(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

/** Runs a GraphQL endpoint with `variables`; resolves to what its reader made of `data`. */
export async function runGraphQL<Vars extends Record<string, unknown>, Data>(
  http: HttpClient,
  ep: Endpoint<"/graphql", Vars, Data> & { page?: undefined },
  variables: Vars,
  options: RequestOptions | undefined,
): Promise<Data> {
  return callEndpoint(http, ep, { params: variables }, options);
}
