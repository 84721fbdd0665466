/** Small fetch helpers for the fake-service tests (plain fetch, no client SDK). */
import { expect } from "vitest";
import type { FakeService } from "../../src/testing/index.js";

export function bearer(svc: FakeService): Record<string, string> {
  return { authorization: `Bearer ${svc.apiKey}` };
}

export function basic(svc: FakeService): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${svc.username}:${svc.password}`).toString("base64")}` };
}

export async function postJson(
  svc: FakeService,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${svc.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function chat(
  svc: FakeService,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postJson(svc, "/v1/chat/completions", { model: "Qwen/Qwen3-8B", ...body }, { ...bearer(svc), ...headers });
}

export function queryCalls(
  svc: FakeService,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postJson(svc, "/calls/stream_query", body, { ...basic(svc), ...headers });
}

/** Splits an SSE body into the data payloads of its events (strict vLLM framing expected). */
export function sseData(text: string): string[] {
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\n\n")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

export interface Chunk {
  id: string;
  object: string;
  model: string;
  created: number;
  choices: Array<{
    index: number;
    delta: { role?: string; content?: string; reasoning?: string; tool_calls?: Array<Record<string, unknown>> };
    logprobs: { content: Array<{ token: string; logprob: number; bytes: number[]; top_logprobs: unknown[] }> } | null;
    finish_reason: string | null;
    stop_reason?: string | number | null;
    token_ids?: number[] | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  prompt_token_ids?: number[];
}

/** Parses a streamed chat completion: the chunks and whether it ended with [DONE]. */
export async function readStream(res: Response): Promise<{ chunks: Chunk[]; done: boolean }> {
  const data = sseData(await res.text());
  const done = data.at(-1) === "[DONE]";
  return { chunks: (done ? data.slice(0, -1) : data).map((d) => JSON.parse(d) as Chunk), done };
}

export async function jsonl(res: Response): Promise<Array<Record<string, any>>> {
  const text = await res.text();
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);
}
