// Shared msw setup for the client tests: one interception server per test file, a log of
// every request it saw, and a client factory that sends through `fetch` (msw intercepts
// fetch, not undici's dispatcher).
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type ClientOptions, Inferloop, type TrainingJobCreateParams } from "../../src/index.js";

export const BASE = "https://api.inferloop.test";
export const TRACE = "https://trace.inferloop.test";
export const KEY = "sk-test-0123456789abcdefSECRET";
export const PASSWORD = "pw-test-9876543210PASSWORD";

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
}

export const ENV_VARS = [
  "INFERLOOP_API_KEY",
  "WANDB_API_KEY",
  "INFERLOOP_USERNAME",
  "INFERLOOP_PASSWORD",
  "INFERLOOP_BASE_URL",
  "INFERLOOP_TRACE_BASE_URL",
  "INFERLOOP_TRAINING_BASE_URL",
  "INFERLOOP_WANDB_BASE_URL",
  "INFERLOOP_LOG",
];

/** Starts msw for the file; `seen` holds the requests of the current test. The INFERLOOP_*
 * variables are cleared for each test and restored after, so the machine's env never leaks in. */
export function useMsw() {
  const server = setupServer();
  const seen: Seen[] = [];
  const saved: Record<string, string | undefined> = {};
  server.events.on("request:start", ({ request }) => {
    seen.push({ method: request.method, url: new URL(request.url), headers: new Headers(request.headers) });
  });
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
  beforeEach(() => {
    for (const k of ENV_VARS) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
  });
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
    for (const k of ENV_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  afterAll(() => server.close());
  return { server, seen };
}

/** A client that sends through the global fetch, where msw listens. */
export function makeClient(options: ClientOptions = {}): Inferloop {
  return new Inferloop({ baseURL: BASE, apiKey: KEY, fetch: (url, init) => fetch(url, init), ...options });
}

export const chatParams = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

export const chatReply = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
};

export const modelList = { object: "list", data: [{ id: "m", object: "model", created: 1, owned_by: "me" }] };

export const trajectoryGroups: TrainingJobCreateParams["trajectory_groups"] = [
  {
    trajectories: [
      {
        messages_and_choices: [
          { role: "user", content: "2+2?" },
          {
            finish_reason: "stop",
            index: 0,
            logprobs: { content: [{ token: "4", logprob: -0.1, bytes: null, top_logprobs: [] }] },
            message: { role: "assistant", content: "4" },
          },
        ],
        reward: 1,
      },
    ],
  },
];
export const MODEL_ID = "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11";

/** An error response with headers that make a retry come at once. */
export function errorResponse(
  status: number,
  body: unknown = { error: { message: `failed ${status}` } },
  headers: Record<string, string> = {},
) {
  return HttpResponse.json(body as Record<string, unknown>, { status, headers: { "retry-after-ms": "1", ...headers } });
}
