/**
 * Type tests (checked by `npm run typecheck`): message and content-part types have no index
 * signature, so a misspelt key in an object literal is a compile error, while every real form
 * still compiles.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionUserMessageParam,
} from "../../src/index.js";

describe("exact message types", () => {
  it("have no index signature", () => {
    expectTypeOf<string extends keyof ChatCompletionUserMessageParam ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<string extends keyof ChatCompletionAssistantMessageParam ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<string extends keyof ChatCompletionContentPart ? true : false>().toEqualTypeOf<false>();
  });

  it("refuse a misspelt key in a message literal", () => {
    const messages: ChatCompletionMessageParam[] = [
      // @ts-expect-error `nmae` is not a key of a user message
      { role: "user", content: "hi", nmae: "bob" },
      // @ts-expect-error `tool_cals` is not a key of an assistant message
      { role: "assistant", content: null, tool_cals: [] },
      // @ts-expect-error `tool_call_di` is not a key of a tool message
      { role: "tool", content: "42", tool_call_id: "c1", tool_call_di: "c1" },
      // @ts-expect-error nor of a custom-role message
      { role: "ipython", content: "42", nmae: "calc" },
    ];
    expectTypeOf(messages).toEqualTypeOf<ChatCompletionMessageParam[]>();
  });

  it("refuse a misspelt key in a content part literal", () => {
    const params: ChatCompletionCreateParamsBase = {
      messages: [
        {
          role: "user",
          content: [
            // @ts-expect-error `txt` is not a key of a text part
            { type: "text", txt: "hi" },
            // @ts-expect-error `detial` is not a key of an image URL
            { type: "image_url", image_url: { url: "https://example.com/a.png", detial: "low" } },
          ],
        },
      ],
    };
    expectTypeOf(params).toEqualTypeOf<ChatCompletionCreateParamsBase>();
  });

  it("take every real form", () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: "developer", content: "Answer tersely." },
      { role: "system", content: [{ type: "text", text: "Be brief." }] },
      { role: "user", name: "bob", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA" } }] },
      { role: "assistant", content: null },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "42" },
      { role: "ipython", content: "42" },
      { role: "custom", content: [{ type: "refusal", refusal: "No." }] },
      { role: "generic", content: "note" },
    ];
    expectTypeOf(messages).toEqualTypeOf<ChatCompletionMessageParam[]>();
  });
});
