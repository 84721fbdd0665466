/**
 * CORS headers, so a browser page on any origin can call the fake service with its auth
 * headers and read `x-request-id` and the retry headers.
 */

const DEFAULT_ALLOWED_HEADERS =
  "authorization, content-type, accept, client-project, openai-project, idempotency-key, x-request-id";
const EXPOSED_HEADERS = "x-request-id, retry-after, retry-after-ms, x-should-retry, idempotent-replayed";

/**
 * Headers added to every response; a preflight's requested headers are echoed back.
 */
export function corsHeaders(requestHeaders: Record<string, string>): Record<string, string> {
  const origin = requestHeaders["origin"];
  return {
    "access-control-allow-origin": origin !== undefined && origin !== "" ? origin : "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": requestHeaders["access-control-request-headers"] ?? DEFAULT_ALLOWED_HEADERS,
    "access-control-expose-headers": EXPOSED_HEADERS,
    "access-control-max-age": "600",
    vary: "Origin, Access-Control-Request-Headers",
  };
}
