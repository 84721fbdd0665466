/**
 * A vLLM started without `--enable-auto-tool-choice` answers 400 to `tools` without
 * `tool_choice` (it picks "auto") and to `tool_choice: "auto"`. The SDK sends the request as
 * written (a tool-calling deployment needs exactly that request) and the error keeps the
 * server's words, adding what the user can do. The fake, started with `autoToolChoice: false`,
 * answers as such a server.
 */
import { describe, expect, it } from "vitest";
import { type APIError, BadRequestError } from "../../src/index.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const fake = useFakeService({ autoToolChoice: false, seedCalls: false });

const SERVER_TEXT = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
const weather = {
  type: "function" as const,
  function: { name: "get_weather", parameters: { type: "object", properties: {} } },
};
const base = { model: "Qwen/Qwen3-8B", messages: [{ role: "user" as const, content: "Weather in Paris?" }] };

describe("a server without auto tool choice", () => {
  it.each([
    ["tools without tool_choice", { tools: [weather] }],
    ['tool_choice "auto"', { tools: [weather], tool_choice: "auto" as const }],
  ])("%s: sent as written; the 400 keeps the server's text and says what to do", async (_name, extra) => {
    const client = clientFor(fake.svc, { maxRetries: 2 });
    const err = await caught(() => client.chat.completions.create({ ...base, ...extra }));
    expect(err).toBeInstanceOf(BadRequestError);
    const message = (err as APIError).message;
    expect((err as APIError).status).toBe(400);
    expect(message).toContain(SERVER_TEXT);
    expect(message).toContain('tool_choice: "none"');
    expect(message).toContain("--enable-auto-tool-choice and --tool-call-parser");
    // Sent once, exactly as written: nothing refused or rewritten on the client, no retry.
    expect(fake.svc.requests).toHaveLength(1);
    expect(JSON.parse(fake.svc.requests[0]!.body)).toStrictEqual({ ...base, ...extra });
  });

  it("the streamed form gets the same hint", async () => {
    const client = clientFor(fake.svc);
    const err = await caught(() => client.chat.completions.create({ ...base, tools: [weather], stream: true }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as APIError).message).toContain(SERVER_TEXT);
    expect((err as APIError).message).toContain('tool_choice: "none"');
  });

  it.each([
    ['tool_choice "none"', { tool_choice: "none" as const }],
    ['tool_choice "required"', { tool_choice: "required" as const }],
    ["a named tool", { tool_choice: { type: "function" as const, function: { name: "get_weather" } } }],
  ])("%s works there", async (_name, extra) => {
    const reply = await clientFor(fake.svc).chat.completions.create({ ...base, tools: [weather], ...extra });
    expect(reply.choices).toHaveLength(1);
  });

  it("other 400s get no tool hint", async () => {
    // Priority scheduling is off on this server too: a 400 of another kind.
    const err = await caught(() =>
      clientFor(fake.svc).chat.completions.create({ ...base, tools: [weather], tool_choice: "none", priority: 1 }),
    );
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as APIError).message).not.toContain("tool_choice");
  });
});
