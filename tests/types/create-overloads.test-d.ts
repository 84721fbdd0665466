/**
 * Type tests (checked by `npm run typecheck`): what `chat.completions.create` returns for each
 * kind of `stream`, and the common mistakes that must not compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  APIPromise,
  ChatCompletion,
  ChatCompletionCreateParamsBase,
  ChatCompletionStream,
  Inferloop,
} from "../../src/index.js";

declare const client: Inferloop;
declare const someFlag: boolean;

describe("chat.completions.create overloads", () => {
  it("stream absent or false gives a completion, true gives a stream, a boolean gives either", () => {
    const messages = [{ role: "user" as const, content: "hi" }];
    expectTypeOf(client.chat.completions.create({ messages })).toEqualTypeOf<APIPromise<ChatCompletion>>();
    expectTypeOf(client.chat.completions.create({ messages, stream: false })).toEqualTypeOf<
      APIPromise<ChatCompletion>
    >();
    expectTypeOf(client.chat.completions.create({ messages, stream: null })).toEqualTypeOf<
      APIPromise<ChatCompletion>
    >();
    expectTypeOf(client.chat.completions.create({ messages, stream: true })).toEqualTypeOf<
      APIPromise<ChatCompletionStream>
    >();
    expectTypeOf(client.chat.completions.create({ messages, stream: someFlag })).toEqualTypeOf<
      APIPromise<ChatCompletion | ChatCompletionStream>
    >();
  });

  it("takes params built beforehand, with roles widened to string (custom messages)", () => {
    const params = { model: "m", messages: [{ role: "user", content: "hi" }] };
    expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletion>>();
    const base: ChatCompletionCreateParamsBase = { messages: params.messages, stream: someFlag };
    expectTypeOf(client.chat.completions.create(base)).toEqualTypeOf<
      APIPromise<ChatCompletion | ChatCompletionStream>
    >();
  });

  it("refuses the common mistakes", () => {
    const widenedPart = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };
    // @ts-expect-error `type` widened to string: not a content part type
    void client.chat.completions.create(widenedPart);

    const widenedEffort = { messages: [{ role: "user" as const, content: "hi" }], reasoning_effort: "low" };
    // @ts-expect-error `reasoning_effort` widened to string
    void client.chat.completions.create(widenedEffort);

    const widenedToolChoice = { messages: [{ role: "user" as const, content: "hi" }], tool_choice: "none" };
    // @ts-expect-error `tool_choice` widened to string
    void client.chat.completions.create(widenedToolChoice);

    // @ts-expect-error a misspelt top-level field
    void client.chat.completions.create({ messages: [], max_completion_token: 5 });

    // @ts-expect-error `messages` is required
    void client.chat.completions.create({ model: "m" });

    // @ts-expect-error `stop` takes strings, not numbers
    void client.chat.completions.create({ messages: [], stop: [1] });

    // @ts-expect-error `stream` must be a boolean
    void client.chat.completions.create({ messages: [], stream: "yes" });

    // @ts-expect-error a misspelt key inside a message
    void client.chat.completions.create({ messages: [{ role: "user", content: "hi", nmae: "bob" }] });
  });
});
