/**
 * The two auth schemes of the interface: Bearer on `/v1/...`, Basic on the trace routes; each
 * route says which it takes.
 */
import { jsonResponse, openAiError } from "./responses.js";
import type { Route } from "./route.js";
import type { ResponsePlan } from "./types.js";
import { base64Utf8, decodeBase64Utf8, hash32 } from "./util.js";

/**
 * Credentials the fake accepts.
 */
export interface Credentials {
  apiKey: string;
  username: string;
  password: string;
}

/**
 * The trace-server user id of a username (`base64("User:<number>")`, as W&B ids look);
 * it becomes `annotator_user_id` on annotation progress.
 *
 * @example
 * ```ts
 * userIdFor("api"); // "VXNlcjo0..." (stable for a given name)
 * ```
 */
export function userIdFor(username: string): string {
  return base64Utf8(`User:${hash32(username) % 1_000_000}`);
}

/**
 * Checks `Authorization: Bearer <apiKey>`; returns a 401 plan when it is wrong or missing.
 */
export function checkBearer(headers: Record<string, string>, creds: Credentials): ResponsePlan | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(headers["authorization"]?.trim() ?? "");
  if (match?.[1] === creds.apiKey) return undefined;
  const plan = openAiError(401, "AuthenticationError", "Authentication failed");
  if (plan.kind === "respond") plan.headers["www-authenticate"] = "Bearer";
  return plan;
}

/**
 * Checks `Authorization: Basic base64(username:password)`; returns the session's username, or a
 * 401 plan.
 */
export function checkBasic(
  headers: Record<string, string>,
  creds: Credentials,
): { username: string } | { denied: ResponsePlan } {
  const match = /^Basic\s+(\S+)$/i.exec(headers["authorization"]?.trim() ?? "");
  const decoded = match?.[1] !== undefined ? decodeBase64Utf8(match[1]) : undefined;
  const colon = decoded?.indexOf(":") ?? -1;
  if (decoded !== undefined && colon >= 0) {
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (username === creds.username && password === creds.password) return { username };
  }
  return {
    denied: jsonResponse(
      401,
      { reason: "Authentication failed" },
      { "www-authenticate": 'Basic realm="fake-trace-server"' },
    ),
  };
}

/**
 * Checks a request against the auth its route declares; returns a 401 plan when it fails.
 */
export function authorize(
  route: Pick<Route<unknown>, "auth" | "apiKeyHeader">,
  headers: Record<string, string>,
  creds: Credentials,
): ResponsePlan | undefined {
  if (route.auth === "none") return undefined;
  if (route.auth === "bearer") return checkBearer(headers, creds);
  const apiKey = route.apiKeyHeader === undefined ? undefined : headers[route.apiKeyHeader];
  if (apiKey !== undefined && apiKey === creds.password) return undefined;
  const auth = checkBasic(headers, creds);
  return "denied" in auth ? auth.denied : undefined;
}
