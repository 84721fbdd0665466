/**
 * The readers endpoints declare for JSON answers: each checks only what the SDK itself reads or
 * promises (responses are parse-and-cast, see core/decoding/response-checks.ts), and names the response by
 * its operation (`training_jobs.create response`).
 *
 * @module
 */

import { expectArray, expectMemberObject, expectObject, shapeError } from "../decoding/response-checks.js";
import type { APIResponse } from "./http-client.js";
import { readJSON } from "./http-client.js";
import type { RequestSpec } from "./request-spec.js";

const responseOf = (spec: RequestSpec) => `${spec.operation} response`;

/** A JSON object, as the server sent it. */
export async function readObject<T = Record<string, unknown>>(res: APIResponse, spec: RequestSpec): Promise<T> {
  return expectObject(await readJSON<unknown>(res), responseOf(spec)) as T;
}

/**
 * A JSON object with a non-empty string `id`: without one nothing was made, whatever the
 * status said (a proxy's page, a redirect).
 */
export async function readWithId<T>(res: APIResponse, spec: RequestSpec): Promise<T> {
  const body = await readObject(res, spec);
  if (typeof body.id !== "string" || body.id === "")
    throw shapeError(responseOf(spec), "id", body.id, "a non-empty string");
  return body as T;
}

/** A JSON object holding `member` as an object (`item`) or an array (`data`, `stats`); the whole object is the result. */
export function readHaving<T>(member: string, kind: "object" | "array") {
  return async (res: APIResponse, spec: RequestSpec): Promise<T> => {
    const body = await readObject(res, spec);
    if (kind === "object") expectMemberObject(body, member, responseOf(spec), member, false);
    else expectArray(body, member, responseOf(spec), member, false);
    return body as T;
  };
}

/** The object in `member` of a JSON object (Weave answers a queue's read and writes with `{ queue }`). */
export function readUnwrapped<T>(member: string) {
  return async (res: APIResponse, spec: RequestSpec): Promise<T> => {
    const body = await readObject(res, spec);
    return expectMemberObject(body, member, responseOf(spec), member, false) as T;
  };
}
