import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
  RequestOptions,
  ValidationIssue,
} from "../index.js";
import { convertPrompt } from "./convert-prompt.js";
import { optionsError } from "./errors.js";
import type { Warning } from "./spec.js";

/**
 * What `providerOptions.inferloop` takes: the SDK's chat request fields (snake_case, as on the
 * wire), checked by the same schema as `client.chat.completions.create`, and `extraBody` for
 * fields the SDK does not know. `model`, `messages` and `stream` come from the AI SDK call.
 */
export type InferloopProviderOptions = Omit<ChatCompletionCreateParamsBase, "messages" | "model" | "stream"> & {
  /** Fields sent as they are, past the SDK's checks (as the `extraBody` request option). */
  extraBody?: Record<string, unknown>;
};

/** The request for one AI SDK call, and what the provider could not pass on. */
export interface PreparedCall {
  params: ChatCompletionCreateParamsBase;
  options: RequestOptions;
  warnings: Warning[];
  /** Top-level keys the caller set through `providerOptions.inferloop`. */
  fromOptions: ReadonlySet<string>;
}

// Set by the AI SDK call itself: a second value in providerOptions would contradict it.
const OWNED = { model: "the model id", messages: "the prompt", stream: "generateText or streamText" } as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readProviderOptions(raw: unknown): { fields: Record<string, unknown>; extraBody?: Record<string, unknown> } {
  if (raw === undefined) return { fields: {} };
  if (!isRecord(raw))
    throw optionsError([{ path: "providerOptions.inferloop", message: "must be an object of chat request fields" }]);
  const issues: ValidationIssue[] = [];
  const { extraBody, ...fields } = raw;
  for (const [key, what] of Object.entries(OWNED))
    if (key in fields)
      issues.push({
        path: `providerOptions.inferloop.${key}`,
        message: `is set by the AI SDK call (${what}); remove it here`,
      });
  const n = fields["n"];
  if (typeof n === "number" && n > 1)
    issues.push({
      path: "providerOptions.inferloop.n",
      message: `is ${n}, but the AI SDK takes one reply per call: make ${n} calls (or use client.chat.completions.create for n > 1)`,
    });
  if (extraBody !== undefined && !isRecord(extraBody))
    issues.push({
      path: "providerOptions.inferloop.extraBody",
      message: "must be an object of fields to send as they are",
    });
  if (issues.length > 0) throw optionsError(issues);
  return extraBody === undefined ? { fields } : { fields, extraBody: extraBody as Record<string, unknown> };
}

function toolChoice(choice: LanguageModelV4CallOptions["toolChoice"]): ChatCompletionToolChoiceOption | undefined {
  if (choice === undefined) return undefined;
  return choice.type === "tool" ? { type: "function", function: { name: choice.toolName } } : choice.type;
}

/** The chat request, request options and warnings for one AI SDK call. */
export function prepareCall(call: LanguageModelV4CallOptions, modelId: string, stream: boolean): PreparedCall {
  const warnings: Warning[] = [];
  const { fields, extraBody } = readProviderOptions(call.providerOptions?.["inferloop"]);

  const tools: ChatCompletionTool[] = [];
  for (const tool of call.tools ?? []) {
    if (tool.type !== "function") {
      warnings.push({
        type: "unsupported",
        feature: `provider-defined tool ${tool.name}`,
        details: "vLLM runs no tools itself; it was not sent",
      });
      continue;
    }
    if (tool.inputExamples !== undefined && tool.inputExamples.length > 0)
      warnings.push({
        type: "unsupported",
        feature: "tool inputExamples",
        details: `vLLM has no field for them (tool ${tool.name})`,
      });
    tools.push({
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.inputSchema as Record<string, unknown>,
        ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
      },
    });
  }

  const format = call.responseFormat;
  const params: ChatCompletionCreateParamsBase = {
    model: modelId,
    messages: convertPrompt(call.prompt, warnings),
    ...(call.maxOutputTokens !== undefined ? { max_completion_tokens: call.maxOutputTokens } : {}),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.topP !== undefined ? { top_p: call.topP } : {}),
    ...(call.topK !== undefined ? { top_k: call.topK } : {}),
    ...(call.presencePenalty !== undefined ? { presence_penalty: call.presencePenalty } : {}),
    ...(call.frequencyPenalty !== undefined ? { frequency_penalty: call.frequencyPenalty } : {}),
    ...(call.stopSequences !== undefined && call.stopSequences.length > 0 ? { stop: call.stopSequences } : {}),
    ...(call.seed !== undefined ? { seed: call.seed } : {}),
    ...(call.reasoning !== undefined && call.reasoning !== "provider-default"
      ? { reasoning_effort: call.reasoning }
      : {}),
    ...(format?.type === "json"
      ? {
          response_format:
            format.schema === undefined
              ? { type: "json_object" as const }
              : {
                  type: "json_schema" as const,
                  json_schema: {
                    name: format.name ?? "response",
                    ...(format.description !== undefined ? { description: format.description } : {}),
                    schema: format.schema as Record<string, unknown>,
                  },
                },
        }
      : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(tools.length > 0 && call.toolChoice !== undefined ? { tool_choice: toolChoice(call.toolChoice) } : {}),
    // The caller's own fields win over the ones derived from the AI SDK's settings.
    ...fields,
  };
  if (stream) {
    const asked = isRecord(fields["stream_options"]) ? fields["stream_options"] : {};
    params.stream = true;
    params.stream_options = { include_usage: true, ...asked };
  }

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers[name] = value;
  const options: RequestOptions = {
    ...(call.abortSignal !== undefined ? { signal: call.abortSignal } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(extraBody !== undefined ? { extraBody } : {}),
  };
  return { params, options, warnings, fromOptions: new Set(Object.keys(fields)) };
}
