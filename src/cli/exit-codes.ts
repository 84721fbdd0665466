// The command's exit codes, one per class of failure, so a script can tell "fix the arguments"
// from "the key was refused" from "try again later" without reading the message.
import {
  APIConnectionError,
  APIError,
  ArtifactNotFoundError,
  AuthenticationError,
  BadRequestError,
  MissingCredentialsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  TrainingJobFailedError,
  UnprocessableEntityError,
} from "../index.js";

/** The exit codes, as `--help` and docs/cli.md list them. */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
  jobFailed: 6,
  interrupted: 130,
} as const;

/** One line per code, for `--help`. */
export const EXIT_CODE_HELP: ReadonlyArray<readonly [number, string]> = [
  [EXIT.ok, "success"],
  [EXIT.unexpected, "unexpected error (an unreadable answer, a failed download check, a bug)"],
  [EXIT.usage, "usage: bad arguments or settings, or an invalid request (RequestValidationError, 400, 422)"],
  [EXIT.auth, "authentication: no key (MissingCredentialsError), or the key was refused (401, 403)"],
  [EXIT.notFound, "not found (404, no such artifact, no checkpoint to download)"],
  [EXIT.unavailable, "service unavailable: connection failed or timed out, 429 or 5xx after the retries"],
  [EXIT.jobFailed, "the training job failed (training_failed)"],
  [EXIT.interrupted, "interrupted (Ctrl-C)"],
];

/** A mistake in the command line itself: exit code 2, with the message saying what to type. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Something the command itself found missing (no checkpoint to download): exit code 4. */
export class NothingFoundError extends Error {
  override name = "NothingFoundError";
}

/** The exit code for an error a command threw. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof RequestValidationError) return EXIT.usage;
  if (err instanceof BadRequestError || err instanceof UnprocessableEntityError) return EXIT.usage;
  if (err instanceof MissingCredentialsError) return EXIT.auth;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) return EXIT.auth;
  if (err instanceof NotFoundError || err instanceof ArtifactNotFoundError || err instanceof NothingFoundError)
    return EXIT.notFound;
  if (err instanceof APIConnectionError || err instanceof RateLimitError) return EXIT.unavailable;
  if (err instanceof APIError && err.status >= 500) return EXIT.unavailable;
  if (err instanceof TrainingJobFailedError) return EXIT.jobFailed;
  return EXIT.unexpected;
}
