import { InferloopError } from "./errors.js";

/** Which credential an operation needs: Bearer for `/v1/...`, Basic for the trace server. */
export type AuthScheme = "bearer" | "basic";

/** The credentials the client was built with (never printed; see `Redactor`). */
export interface Credentials {
  apiKey: string | undefined;
  username: string;
  password: string | undefined;
}

/** Thrown when an operation needs a credential the client does not have.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof MissingCredentialsError) console.log(e.message) }
 * ```
 */
export class MissingCredentialsError extends InferloopError {
  override name = "MissingCredentialsError";
}

/** UTF-8 aware base64, so a non-Latin-1 user name or password works (`btoa` alone throws). */
export function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The `Authorization` header value for a scheme, or a clear error naming the option and
 * the environment variable to set. */
export function authorizationHeader(scheme: AuthScheme, creds: Credentials): string {
  if (scheme === "bearer") {
    if (!creds.apiKey)
      throw new MissingCredentialsError(
        "This operation needs an API key: pass `apiKey` to new Inferloop({...}) or set INFERLOOP_API_KEY.",
      );
    return `Bearer ${creds.apiKey}`;
  }
  if (!creds.password)
    throw new MissingCredentialsError(
      "This operation uses Basic auth and needs a password: pass `password` (or `apiKey`) to new Inferloop({...}), or set INFERLOOP_PASSWORD (or INFERLOOP_API_KEY).",
    );
  return `Basic ${base64(`${creds.username}:${creds.password}`)}`;
}
