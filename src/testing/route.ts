/**
 * What a route of the fake service is: one row of an area's table (method, path pattern, who
 * may call it, handler). Each area's folder (chat, models, training, calls, annotation-queues,
 * feedback, artifacts) exports its rows from `routes.ts`; the router dispatches them all from
 * one list, and answers 404 and 405 from the same rows. Adding a route is adding a row to its
 * area's table.
 */
import type { Fault } from "./faults/kinds.js";
import type { FakeRequest, ResponsePlan } from "./types.js";

/**
 * Who may call a route: Bearer (`apiKey`) as the inference and training APIs take it, Basic
 * (`username`, `password`) as the trace server takes it, Basic with the API key as password as
 * W&B's own API takes it (`wandb`), or anyone (signed storage URLs carry their own signature).
 */
export type RouteAuth = "bearer" | "basic" | "wandb" | "none";

/** What a handler gets: the request, the part of the state its area uses, the path's `{name}`s. */
export interface RouteContext<State, Params = Readonly<Record<string, string>>> {
  req: FakeRequest;
  state: State;
  /** The path's `{name}` segments, percent-decoded. */
  params: Params;
  /** The fault applied to this request, if any: a `trainingFailed` fault reaches the job it creates. */
  fault: Fault | undefined;
}

/**
 * One route. `State` is what its handler reads of the fake's state (`{ calls: CallStore }`),
 * so an area needs nothing of the state it does not use.
 */
export interface Route<State> {
  readonly method: string;
  /** `/v1/preview/models/{model_id}/checkpoints`: each `{name}` matches one path segment. */
  readonly path: string;
  readonly auth: RouteAuth;
  /**
   * A header that may carry the Basic password alone instead of `authorization`, as
   * OpenTelemetry exporters send W&B's key in `wandb-api-key`.
   */
  readonly apiKeyHeader?: string;
  readonly handle: (ctx: RouteContext<State>) => ResponsePlan;
}

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The `{name}`s of a path pattern, as the members of `params`. */
export type PathParams<Path extends string> = { readonly [Name in ParamNames<Path>]: string };

/**
 * Declares a route; the handler's `params` has a member per `{name}` of the path.
 */
export function route<State, Path extends string>(
  row: Omit<Route<State>, "path" | "handle"> & {
    path: Path;
    handle: (ctx: RouteContext<State, PathParams<Path>>) => ResponsePlan;
  },
): Route<State> {
  // The router fills `params` from the same pattern, so each name the handler reads is there.
  return row as unknown as Route<State>;
}

/**
 * A matcher for a path pattern: the raw (still percent-encoded) `{name}` segments of a path it
 * matches, by name, or `undefined`.
 */
export function pathMatcher(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split(/(\{[^}]+\})/)
    .map((piece) => {
      const name = /^\{([^}]+)\}$/.exec(piece)?.[1];
      if (name === undefined) return piece.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
      names.push(name);
      return "([^/]+)";
    })
    .join("");
  const regex = new RegExp(`^${source}$`);
  return (path) => {
    const m = regex.exec(path);
    if (m === null) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, m[i + 1]!]));
  };
}
