import { InferloopError } from "../errors/errors.js";
import { readEnv } from "./env.js";

/**
 * Which credential an operation needs: Bearer for Inference and Training, Basic with the
 * client's username and password for the trace server, Basic `api:<apiKey>` for W&B's own API
 * (as W&B's clients send it to its GraphQL endpoint).
 */
export type AuthScheme = "bearer" | "basic" | "api-key-basic";

/** The credentials the client was built with (never printed; see `Redactor`). */
export interface Credentials {
  apiKey: string | undefined;
  username: string;
  password: string | undefined;
  /** Where each one came from (an option, an environment variable, a default), for messages. */
  sources?: { apiKey: string; username: string; password: string };
}

/**
 * The client's credentials from its options, else the environment (`INFERLOOP_API_KEY`, else
 * `WANDB_API_KEY`,
 * `INFERLOOP_USERNAME`, else "api", `INFERLOOP_PASSWORD`, else the API key), with where each
 * came from.
 */
export function resolveCredentials(options: {
  apiKey?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}): Credentials {
  const pick = (option: string | null | undefined, name: string, env: string): [string | undefined, string] =>
    option != null ? [option, `the \`${name}\` option`] : [readEnv(env), env];
  let [apiKey, apiKeySource] = pick(options.apiKey, "apiKey", "INFERLOOP_API_KEY");
  // W&B's own tools read WANDB_API_KEY; a W&B user has it set already.
  if (apiKey === undefined && readEnv("WANDB_API_KEY") !== undefined)
    [apiKey, apiKeySource] = [readEnv("WANDB_API_KEY"), "WANDB_API_KEY"];
  let [username, usernameSource] = pick(options.username, "username", "INFERLOOP_USERNAME");
  let [password, passwordSource] = pick(options.password, "password", "INFERLOOP_PASSWORD");
  if (username === undefined) {
    username = "api";
    usernameSource = 'the default ("api")';
  }
  if (password === undefined) passwordSource = `the API key (${apiKeySource})`;
  return {
    apiKey,
    username,
    password: password ?? apiKey,
    sources: { apiKey: apiKeySource, username: usernameSource, password: passwordSource },
  };
}

/**
 * What a 401 is told about the credential that was refused: the scheme, which option or
 * environment variable each part came from, and how to set the right one. Never a value.
 * `origin` is the host that refused it: W&B's hosts add where a W&B key is found.
 */
export function authFailureHint(scheme: AuthScheme, creds: Credentials, callerHeader: boolean, origin = ""): string {
  const src = creds.sources;
  if (callerHeader) return " (sent: your own Authorization header)";
  if (src === undefined) return "";
  const wandb = /^https:\/\/([^/]+\.)?wandb\.ai$/.test(origin)
    ? "; W&B API keys are at https://wandb.ai/authorize"
    : "";
  if (scheme === "bearer")
    return ` (sent: Bearer \`apiKey\` from ${src.apiKey}; to fix: ${keyFix(src.apiKey)}${wandb})`;
  if (scheme === "api-key-basic")
    return ` (sent: Basic api:\`apiKey\` from ${src.apiKey}; to fix: ${keyFix(src.apiKey)}${wandb})`;
  const password =
    src.password === "the `password` option"
      ? "pass the right `password`"
      : src.password === "INFERLOOP_PASSWORD"
        ? "set INFERLOOP_PASSWORD to the right password, or pass `password` to new Inferloop({...})"
        : `the password is the API key: ${keyFix(src.apiKey)}, or set INFERLOOP_PASSWORD`;
  return ` (sent: Basic \`username\` from ${src.username}, \`password\` from ${src.password}; to fix: ${password}${wandb})`;
}

/** How to set the API key, by where the refused one came from. */
function keyFix(source: string): string {
  if (source === "the `apiKey` option") return "pass the right key as `apiKey`";
  const first = source === "WANDB_API_KEY" ? " (INFERLOOP_API_KEY is read first)" : "";
  return `set ${source} to the right key${first}, or pass \`apiKey\` to new Inferloop({...})`;
}

/** Thrown when an operation needs a credential the client does not have. */
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
  if (scheme === "bearer" || scheme === "api-key-basic") {
    if (!creds.apiKey)
      throw new MissingCredentialsError(
        "This operation needs an API key: pass `apiKey` to new Inferloop({...}) or set INFERLOOP_API_KEY (or WANDB_API_KEY).",
      );
    return scheme === "bearer" ? `Bearer ${creds.apiKey}` : `Basic ${base64(`api:${creds.apiKey}`)}`;
  }
  if (!creds.password)
    throw new MissingCredentialsError(
      "This operation uses Basic auth and needs a password: pass `password` (or `apiKey`) to new Inferloop({...}), or set INFERLOOP_PASSWORD (or INFERLOOP_API_KEY).",
    );
  return `Basic ${base64(`${creds.username}:${creds.password}`)}`;
}
