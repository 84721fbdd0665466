/**
 * `POST /v1/chat/completions`: validation, then a deterministic completion sent as vLLM does,
 * either as one JSON body (every field, nulls where vLLM sends null) or as SSE:
 * `data: <json>\n\n` per chunk, one choice per chunk, a role chunk first per index, token chunks
 * of the n choices interleaved round-robin, the last token of each choice carrying its
 * finish_reason (a separate empty-delta finish chunk after a tool call), an optional usage chunk
 * with `choices: []`, then `data: [DONE]\n\n`.
 */

import type { ArtifactStore } from "../artifacts/store.js";
import { jsonResponse, openAiError } from "../responses.js";
import type { Route } from "../route.js";
import { route } from "../route.js";
import { resolveTrainedChat } from "../training/serving.js";
import type { TrainableStore } from "../training/store.js";
import type { BodyPart, FakeModelEntry, FakeRequest, ResponsePlan } from "../types.js";
import { randomHex } from "../util.js";
import type { ChatParams, ChatServerFlags } from "./checks.js";
import { checkChatRequest } from "./checks.js";
import type { GeneratedChoice, GeneratedToken } from "./generate.js";
import { generateChoice, messageText, promptTokenIds, topAlternatives } from "./generate.js";
import { resolveDeployedLora } from "./lora-serving.js";

interface Completion {
  id: string;
  created: number;
  params: ChatParams;
  role: string;
  promptIds: number[];
  choices: GeneratedChoice[];
  echo: string | undefined;
}

/**
 * Replaces the generated choice `index` when it returns one: how a trained name's simulated
 * policy answers (see `training/serving.ts`).
 */
export type ReplyPolicy = (params: ChatParams, index: number) => GeneratedChoice | undefined;

function buildCompletion(params: ChatParams, requestId: string | undefined, policy?: ReplyPolicy): Completion {
  const n = params.n ?? 1;
  const last = params.messages.at(-1);
  const role = params.add_generation_prompt === false && last !== undefined ? last.role : "assistant";
  return {
    id: `chatcmpl-${requestId ?? randomHex(32)}`,
    created: Math.floor(Date.now() / 1000),
    params,
    role,
    promptIds: promptTokenIds(params),
    choices: Array.from({ length: n }, (_, i) => policy?.(params, i) ?? generateChoice(params, i)),
    echo: params.echo === true && last !== undefined && last.role === role ? messageText(last) : undefined,
  };
}

function logprobEntry(token: GeneratedToken, params: ChatParams): Record<string, unknown> {
  const name = (text: string): string => (params.return_tokens_as_token_ids === true ? `token_id:${token.id}` : text);
  const bytes = (text: string): number[] => [...new TextEncoder().encode(text)];
  const top = params.top_logprobs === -1 ? 5 : (params.top_logprobs ?? 0);
  return {
    token: name(token.text),
    logprob: token.logprob,
    bytes: bytes(token.text),
    top_logprobs:
      top > 0
        ? topAlternatives(token, top).map((alt) => ({
            token: name(alt.text),
            logprob: alt.logprob,
            bytes: bytes(alt.text),
          }))
        : [],
  };
}

function textOf(choice: GeneratedChoice, channel: GeneratedToken["channel"]): string {
  return choice.tokens
    .filter((t) => t.channel === channel)
    .map((t) => t.text)
    .join("");
}

function usage(prompt: number, completion: number, withDetails: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    prompt_tokens: prompt,
    total_tokens: prompt + completion,
    completion_tokens: completion,
  };
  if (withDetails) out["prompt_tokens_details"] = null;
  return out;
}

function promptLogprobs(c: Completion): Array<Record<string, unknown> | null> | null {
  const k = c.params.prompt_logprobs;
  if (k == null) return null;
  return c.promptIds.map((id, i) =>
    i === 0 ? null : { [String(id)]: { logprob: -((id % 997) / 100), rank: 1 + (id % 50), decoded_token: `<${id}>` } },
  );
}

function completionJson(c: Completion): Record<string, unknown> {
  const p = c.params;
  const choices = c.choices.map((choice) => {
    const content = textOf(choice, "content");
    const reasoning = textOf(choice, "reasoning");
    const message: Record<string, unknown> = {
      role: c.role,
      content: choice.toolCall !== undefined && content === "" ? null : (c.echo ?? "") + content,
      refusal: null,
      annotations: null,
      audio: null,
      function_call: null,
      reasoning: reasoning === "" ? null : reasoning,
    };
    if (choice.toolCall !== undefined) {
      message["tool_calls"] = [
        {
          id: choice.toolCall.id,
          type: "function",
          function: { name: choice.toolCall.name, arguments: textOf(choice, "tool_args") },
        },
      ];
    }
    return {
      index: choice.index,
      message,
      logprobs: p.logprobs === true ? { content: choice.tokens.map((t) => logprobEntry(t, p)) } : null,
      finish_reason: choice.finishReason,
      stop_reason: choice.stopReason,
      token_ids: p.return_token_ids === true ? choice.tokens.map((t) => t.id) : null,
    };
  });
  const completionTokens = c.choices.reduce((n, ch) => n + ch.tokens.length, 0);
  return {
    id: c.id,
    object: "chat.completion",
    created: c.created,
    model: p.model,
    choices,
    service_tier: null,
    system_fingerprint: null,
    usage: usage(c.promptIds.length, completionTokens, true),
    prompt_logprobs: promptLogprobs(c),
    prompt_token_ids: p.return_token_ids === true ? c.promptIds : null,
    kv_transfer_params: null,
  };
}

function delta(token: GeneratedToken, choice: GeneratedChoice): Record<string, unknown> {
  switch (token.channel) {
    case "reasoning":
      return { reasoning: token.text };
    case "content":
      return { content: token.text };
    case "tool_name":
      return { tool_calls: [{ id: choice.toolCall!.id, type: "function", index: 0, function: { name: token.text } }] };
    case "tool_args":
      return { tool_calls: [{ index: 0, function: { arguments: token.text } }] };
  }
}

/**
 * The SSE events of a streamed completion, in order, each one `data: ...\n\n`.
 */
function* streamEvents(c: Completion): Generator<string> {
  const p = c.params;
  const base = { id: c.id, object: "chat.completion.chunk", created: c.created, model: p.model };
  const includeUsage = p.stream_options?.include_usage === true;
  const continuous = includeUsage && p.stream_options?.continuous_usage_stats === true;
  const promptTokens = c.promptIds.length;
  const event = (payload: Record<string, unknown>): string => `data: ${JSON.stringify(payload)}\n\n`;
  const withUsage = (chunk: Record<string, unknown>, completion: number): Record<string, unknown> =>
    continuous ? { ...chunk, usage: usage(promptTokens, completion, false) } : chunk;

  for (const choice of c.choices) {
    const chunk: Record<string, unknown> = {
      ...base,
      choices: [{ index: choice.index, delta: { role: c.role, content: "" }, logprobs: null, finish_reason: null }],
    };
    if (choice.index === 0 && p.return_token_ids === true) chunk["prompt_token_ids"] = c.promptIds;
    yield event(withUsage(chunk, 0));
  }
  if (c.echo !== undefined) {
    for (const choice of c.choices) {
      yield event(
        withUsage(
          {
            ...base,
            choices: [{ index: choice.index, delta: { content: c.echo }, logprobs: null, finish_reason: null }],
          },
          0,
        ),
      );
    }
  }

  const finishedChoice = (choice: GeneratedChoice, fields: Record<string, unknown>): Record<string, unknown> => ({
    ...fields,
    finish_reason: choice.finishReason,
    stop_reason: choice.stopReason,
  });
  const longest = Math.max(0, ...c.choices.map((ch) => ch.tokens.length));
  for (let step = 0; step < longest || step === 0; step++) {
    for (const choice of c.choices) {
      const token = choice.tokens[step];
      const separateFinish = choice.finishReason === "tool_calls" || choice.tokens.length === 0;
      if (token !== undefined) {
        const isLast = step === choice.tokens.length - 1;
        let fields: Record<string, unknown> = {
          index: choice.index,
          delta: delta(token, choice),
          logprobs: p.logprobs === true ? { content: [logprobEntry(token, p)] } : null,
          finish_reason: null,
          token_ids: p.return_token_ids === true ? [token.id] : null,
        };
        if (isLast && !separateFinish) fields = finishedChoice(choice, fields);
        yield event(withUsage({ ...base, choices: [fields] }, step + 1));
      }
      const finishNow = separateFinish && (choice.tokens.length === 0 ? step === 0 : step === choice.tokens.length - 1);
      if (finishNow) {
        const fields = finishedChoice(choice, {
          index: choice.index,
          delta: {},
          logprobs: null,
          token_ids: p.return_token_ids === true ? [] : null,
        });
        yield event(withUsage({ ...base, choices: [fields] }, choice.tokens.length));
      }
    }
  }
  if (includeUsage) {
    const total = c.choices.reduce((n, ch) => n + ch.tokens.length, 0);
    yield event({ ...base, choices: [], usage: usage(promptTokens, total, false) });
  }
  yield "data: [DONE]\n\n";
}

async function* sse(events: Iterable<string>, signal: AbortSignal): AsyncGenerator<BodyPart> {
  for (const e of events) {
    if (signal.aborted) return;
    yield e;
  }
}

/**
 * Handles the chat route (auth already checked).
 */
export function handleChat(
  req: FakeRequest,
  models: FakeModelEntry[],
  policy?: ReplyPolicy,
  server?: ChatServerFlags,
): ResponsePlan {
  if (req.json === undefined) {
    return openAiError(
      400,
      "BadRequestError",
      req.body.trim() === "" ? "Request body is required" : "JSON decode error",
      null,
    );
  }
  const checked = checkChatRequest(req.json, models, req.body, server);
  if (!checked.ok) return checked.error;
  const completion = buildCompletion(checked.params, checked.params.request_id, policy);
  if (checked.params.stream !== true) return jsonResponse(200, completionJson(completion));
  return {
    kind: "respond",
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    body: sse(streamEvents(completion), req.signal),
  };
}

/**
 * The chat area's routes. A `wandb-artifact:///` model name is a LoRA adapter deployed as an
 * artifact (lora-serving.ts), or one the training service trained: it answers with what the
 * model learned at that step.
 */
export const CHAT_ROUTES: ReadonlyArray<
  Route<{ models: FakeModelEntry[]; trainable: TrainableStore; artifacts: ArtifactStore; autoToolChoice: boolean }>
> = [
  route({
    method: "POST",
    path: "/v1/chat/completions",
    auth: "bearer",
    handle: ({ req, state }) => {
      const served = resolveDeployedLora(req, state.artifacts) ?? resolveTrainedChat(state.trainable, req);
      const server = { autoToolChoice: state.autoToolChoice };
      if (served === undefined) return handleChat(req, state.models, undefined, server);
      if ("error" in served) return served.error;
      return handleChat(req, [...state.models, served.entry], served.policy, server);
    },
  }),
];
