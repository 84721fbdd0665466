/**
 * Unknown keys inside messages over real HTTP: a far one reaches the server as written, a near
 * miss of a known key is refused before anything is sent.
 */
import { describe, expect, it } from "vitest";
import { type ChatCompletionMessageParam, RequestValidationError } from "../../src/index.js";
import { caught, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

describe("unknown keys inside messages", () => {
  it("sends a key the SDK does not know, as written", async () => {
    const message = { role: "user", content: "echo hi", cache_control: { type: "ephemeral" } };
    // A message built elsewhere (no literal check); the SDK still sends every key it carries.
    await fake.client.chat.completions.create({ model: MODEL, messages: [message as ChatCompletionMessageParam] });
    expect(fake.svc.requests).toHaveLength(1);
    expect((fake.svc.requests[0]!.json as { messages: unknown[] }).messages[0]).toStrictEqual(message);
  });

  it("refuses a misspelt key with a did-you-mean, and sends nothing", async () => {
    const message = { role: "user", content: "echo hi", nmae: "bob" };
    const err = await caught(() =>
      fake.client.chat.completions.create({ model: MODEL, messages: [message as ChatCompletionMessageParam] }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    const issue = (err as RequestValidationError).issues[0]!;
    expect(issue.path).toBe("messages.0.nmae");
    expect(issue.message).toContain('did you mean "name"');
    expect(fake.svc.requests).toHaveLength(0);
  });
});
