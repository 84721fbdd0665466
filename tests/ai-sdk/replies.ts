// Canned vLLM replies behind a `fetch` stub, for the provider's unit tests of both entries.
import { Inferloop } from "../../src/index.js";

export interface Sent {
  body: Record<string, unknown>;
  headers: Headers;
}

export interface StubInit {
  sse?: boolean;
  headers?: Record<string, string>;
}

/** A client whose every request gets `reply` (SSE chunks with `sse`), and what it sent. */
export function stubClient(reply: unknown, init: StubInit = {}) {
  const sent: Sent[] = [];
  const client = new Inferloop({
    baseURL: "http://vllm.test",
    apiKey: "k",
    maxRetries: 0,
    fetch: async (_url, req) => {
      sent.push({ body: JSON.parse(String(req?.body)) as Record<string, unknown>, headers: new Headers(req?.headers) });
      const body = init.sse
        ? `${(reply as unknown[]).map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`
        : JSON.stringify(reply);
      return new Response(body, {
        headers: {
          "content-type": init.sse ? "text/event-stream" : "application/json",
          "x-request-id": "req-1",
          ...init.headers,
        },
      });
    },
  });
  return { client, sent };
}

export const completion = (
  message: Record<string, unknown>,
  choice: Record<string, unknown> = {},
  body: Record<string, unknown> = {},
) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_767_000_000,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop", ...choice }],
  usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
  ...body,
});

export const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-2",
  object: "chat.completion.chunk",
  created: 1_767_000_000,
  model: "m",
  choices,
  ...extra,
});

/** Every part of a model's stream, read to the end. */
export async function parts<Part>(stream: ReadableStream<Part>): Promise<Part[]> {
  const out: Part[] = [];
  for await (const part of stream as unknown as AsyncIterable<Part>) out.push(part);
  return out;
}
