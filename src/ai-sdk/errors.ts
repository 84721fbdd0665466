import { RequestValidationError, type ValidationIssue } from "../index.js";

const WHAT = "AI SDK call to inferloop";

/** A prompt the provider cannot express for vLLM: refused like any bad request, nothing sent. */
export function promptError(path: string, message: string): RequestValidationError {
  return new RequestValidationError([{ path, message }], WHAT);
}

/** A refusal of `providerOptions.inferloop`, naming the key where the caller wrote it. */
export function optionsError(issues: ValidationIssue[]): RequestValidationError {
  return new RequestValidationError(issues, WHAT);
}

/**
 * The client's refusal of the request, with each issue about a field the caller set through
 * `providerOptions.inferloop` named by its path there; issues about fields the provider derived
 * from the AI SDK's own settings keep their wire path.
 */
export function renameIssues(err: unknown, fromOptions: ReadonlySet<string>): unknown {
  if (!(err instanceof RequestValidationError)) return err;
  let renamed = false;
  const issues = err.issues.map((issue) => {
    const head = issue.path.split(".")[0] ?? "";
    if (!fromOptions.has(head)) return issue;
    renamed = true;
    return { ...issue, path: `providerOptions.inferloop.${issue.path}` };
  });
  return renamed ? optionsError(issues) : err;
}
