/**
 * Streamed structured output: a {@link ChatCompletionStream} made with a response format from
 * `zodResponseFormat` or `responseFormat`, whose final completion is parsed and checked against
 * the schema as `chat.completions.parse` does, and which can show the reply's JSON as it grows.
 *
 * @module
 */
import {
  type CompletionParser,
  PARSED_STREAM,
  type ParsedChatCompletion,
  type ParsedStreamOpener,
} from "../../wire/chat/parse-hook.js";
import { ChatCompletionStream } from "../../wire/chat/stream/stream.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import { parsePartialJSON } from "./partial-json.js";

/**
 * Gives a response format the opener of the stream that parses its final completion with
 * `parse` (see PARSED_STREAM); non-enumerable, so it never reaches the wire.
 */
export function withStreamParsing<F extends object, T>(format: F, parse: AnyParser<T>): F {
  const open: ParsedStreamOpener<ParsedChatCompletionStream<T>> = (res, redactor, signal) =>
    ParsedChatCompletionStream.withParser(ParsedChatCompletionStream.fromResponse(res, redactor, signal), parse);
  Object.defineProperty(format, PARSED_STREAM, { value: open, enumerable: false });
  return format;
}

/**
 * `T` while it is still arriving: every member may be missing yet, at any depth.
 */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

type AnyParser<T> = CompletionParser<ParsedChatCompletion<T> | Promise<ParsedChatCompletion<T>>>;

const unset: AnyParser<never> = () => {
  throw new Error("ParsedChatCompletionStream made without its response format's parser");
};

/**
 * A chat stream whose `response_format` came from `zodResponseFormat` or `responseFormat`
 * (`chat.completions.parse({ ..., stream: true })`, or `create` with such a format and
 * `stream: true`). It reads like any {@link ChatCompletionStream}; in addition
 * `finalCompletion()` puts the reply, parsed and checked against the schema, in each choice's
 * `message.parsed` (a reply that does not parse rejects with `ContentParseError`), and
 * `partialParsed()` gives choice 0's value as its JSON grows.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const Weather = z.object({ city: z.string(), celsius: z.number() });
 * const stream = await client.chat.completions.parse({ model, messages, response_format: zodResponseFormat(Weather, "weather"), stream: true });
 * for await (const partial of stream.partialParsed()) console.log(partial.city);
 * const weather = (await stream.finalCompletion()).choices[0]?.message.parsed;
 * ```
 */
export class ParsedChatCompletionStream<T> extends ChatCompletionStream {
  #parse: AnyParser<T> = unset;
  #parsed: Promise<ParsedChatCompletion<T>> | undefined;

  /** @internal A stream that parses its final completion with `parse`. */
  static withParser<T>(
    stream: ParsedChatCompletionStream<unknown>,
    parse: AnyParser<T>,
  ): ParsedChatCompletionStream<T> {
    const typed = stream as ParsedChatCompletionStream<T>;
    typed.#parse = parse;
    return typed;
  }

  /**
   * The accumulated completion with every choice's `message.parsed`: the reply parsed and
   * validated by the response format's schema (`null` for a choice without content). A reply
   * that is not JSON or does not match rejects with `ContentParseError` naming the choice.
   *
   * @example
   * ```ts
   * const completion = await stream.finalCompletion();
   * console.log(completion.choices[0]?.message.parsed);
   * ```
   */
  override finalCompletion(): Promise<ParsedChatCompletion<T>> {
    return (this.#parsed ??= super.finalCompletion().then((completion: ChatCompletion) => this.#parse(completion)));
  }

  /**
   * Choice 0's reply read as JSON while it arrives: a new value each time a chunk makes more
   * of it readable. The values are not validated (a half object rarely matches the schema);
   * `finalCompletion()` afterwards gives the validated result. Reads the stream, as
   * `textStream()` does: use one of the two.
   *
   * @example
   * ```ts
   * import { z } from "zod";
   *
   * const days = z.object({ days: z.array(z.object({ celsius: z.number() })) });
   * const stream = await client.chat.completions.parse({ model, messages, response_format: zodResponseFormat(days, "days"), stream: true });
   * for await (const partial of stream.partialParsed()) console.log(partial.days?.length ?? 0, "days so far");
   * ```
   */
  async *partialParsed(): AsyncGenerator<DeepPartial<T>> {
    let text = "";
    let last = "";
    for await (const delta of this.textStream()) {
      text += delta;
      const value = parsePartialJSON(text);
      if (value === undefined) continue;
      // Only a change is news: a chunk of whitespace or half a number shows nothing new.
      const key = JSON.stringify(value);
      if (key === last) continue;
      last = key;
      yield value as DeepPartial<T>;
    }
  }
}
