/**
 * Replies read back as structured output, whichever schema library made the response format:
 * the error for a reply that does not parse, and the two steps every format shares (JSON
 * first, then the schema's issues turned into that error). The parsed completion types are
 * the endpoint's (wire/chat/parse-hook.ts).
 *
 * @module
 */
import { InferloopError } from "../../core/errors/errors.js";
import type { ParsedChatCompletion, ParsedChatCompletionChoice } from "../../wire/chat/parse-hook.js";
import type { ChatCompletion, ChatCompletionChoice } from "../../wire/chat/types.js";

/**
 * One reason a reply did not parse: where (path inside the value) and why.
 */
export interface ContentParseIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/**
 * Thrown when a reply's content is not JSON or does not match the response format's schema.
 * `choiceIndex` names the choice, `issues` lists what failed, `content` holds the raw text.
 * An {@link InferloopError}, so one `instanceof` check still catches every SDK error.
 */
export class ContentParseError extends InferloopError {
  override readonly name = "ContentParseError";
  readonly choiceIndex: number;
  readonly issues: ContentParseIssue[];
  readonly content: string;

  constructor(
    message: string,
    details: { choiceIndex: number; issues: ContentParseIssue[]; content: string; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.choiceIndex = details.choiceIndex;
    this.issues = details.issues;
    this.content = details.content;
  }
}

/** Where a choice is, and why its JSON may be bad: a reply cut off by max tokens usually is. */
function describeChoice(choice: ChatCompletionChoice): { where: string; hint: string } {
  return {
    where: `choice ${choice.index}`,
    hint: choice.finish_reason === "length" ? ' (finish_reason is "length": the reply was cut off)' : "",
  };
}

/** A choice's content as JSON, or a {@link ContentParseError} naming the choice. */
export function readReplyJSON(content: string, choice: ChatCompletionChoice): unknown {
  try {
    return JSON.parse(content);
  } catch (err) {
    const { where, hint } = describeChoice(choice);
    const message = err instanceof Error ? err.message : String(err);
    throw new ContentParseError(`${where}: content is not valid JSON${hint}: ${message}`, {
      choiceIndex: choice.index,
      issues: [{ path: [], message, code: "invalid_json" }],
      content,
      cause: err,
    });
  }
}

/** The error for a reply that is JSON but not what the schema wants; `issues` is not empty. */
export function mismatchError(
  issues: readonly ContentParseIssue[],
  content: string,
  choice: ChatCompletionChoice,
  name: string,
): ContentParseError {
  const { where, hint } = describeChoice(choice);
  const list = issues.map((i) => ({
    path: [...i.path],
    message: i.message,
    ...(i.code === undefined ? {} : { code: i.code }),
  }));
  const first = list[0]!;
  const at = first.path.length ? first.path.map(String).join(".") : "(root)";
  const more = list.length > 1 ? ` (and ${list.length - 1} more)` : "";
  return new ContentParseError(
    `${where}: content does not match response format "${name}"${hint}: ${at}: ${first.message}${more}`,
    { choiceIndex: choice.index, issues: list, content },
  );
}

/**
 * The content a choice's `parsed` is read from, or null when there is none to read: no content,
 * or a blank one beside tool calls (a streamed tool-call reply starts with vLLM's role delta
 * `{"role":"assistant","content":""}`, so it accumulates to `""` where the plain reply has null).
 */
export function parseableContent(choice: ChatCompletionChoice): string | null {
  const { content, tool_calls } = choice.message;
  if (content == null) return null;
  if (content.trim() === "" && tool_calls != null && tool_calls.length > 0) return null;
  return content;
}

/** A shallow copy of the completion whose every message carries `parsed` (null without content). */
export function withParsedChoices<T>(
  completion: ChatCompletion,
  parse: (content: string, choice: ChatCompletionChoice) => T,
): ParsedChatCompletion<T> {
  const choices = completion.choices.map((choice): ParsedChatCompletionChoice<T> => {
    const content = parseableContent(choice);
    const parsed = content == null ? null : parse(content, choice);
    return { ...choice, message: { ...choice.message, parsed } };
  });
  return { ...completion, choices };
}
