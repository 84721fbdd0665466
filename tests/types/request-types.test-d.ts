/**
 * Type tests (checked by `npm run typecheck`): the request types are named interfaces, the
 * exported schemas are typed by them, and they take the forms the real servers take.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type {
  AnnotationQueueItemProgressParams,
  annotationQueueItemProgressParamsSchema,
  CallsFilter,
  CallsQueryParams,
  ChatCompletionContentPart,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  callsFilterSchema,
  callsQueryParamsSchema,
  chatCompletionContentPartSchema,
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsStreamingSchema,
  chatCompletionMessageParamSchema,
  ExperimentalConfig,
  experimentalConfigSchema,
  ReasoningEffort,
  TrainingJobCreateParams,
  TrajectoryParams,
  trainingJobCreateParamsSchema,
  trajectorySchema,
} from "../../src/index.js";

describe("exported schemas are typed by the named request types", () => {
  it("chat", () => {
    expectTypeOf<z.input<typeof chatCompletionCreateParamsSchema>>().toEqualTypeOf<ChatCompletionCreateParamsBase>();
    expectTypeOf<
      z.input<typeof chatCompletionCreateParamsStreamingSchema>
    >().toEqualTypeOf<ChatCompletionCreateParamsStreaming>();
    expectTypeOf<
      z.input<typeof chatCompletionCreateParamsNonStreamingSchema>
    >().toEqualTypeOf<ChatCompletionCreateParamsNonStreaming>();
    expectTypeOf<z.output<typeof chatCompletionMessageParamSchema>>().toEqualTypeOf<ChatCompletionMessageParam>();
    expectTypeOf<z.input<typeof chatCompletionContentPartSchema>>().toEqualTypeOf<ChatCompletionContentPart>();
  });

  it("calls, annotation queues and training jobs", () => {
    expectTypeOf<z.input<typeof callsQueryParamsSchema>>().toEqualTypeOf<CallsQueryParams>();
    expectTypeOf<z.input<typeof callsFilterSchema>>().toEqualTypeOf<CallsFilter>();
    expectTypeOf<
      z.input<typeof annotationQueueItemProgressParamsSchema>
    >().toEqualTypeOf<AnnotationQueueItemProgressParams>();
    expectTypeOf<z.input<typeof trainingJobCreateParamsSchema>>().toEqualTypeOf<TrainingJobCreateParams>();
    expectTypeOf<z.input<typeof trajectorySchema>>().toEqualTypeOf<TrajectoryParams>();
    expectTypeOf<z.input<typeof experimentalConfigSchema>>().toEqualTypeOf<ExperimentalConfig>();
  });

  it("streaming and non-streaming share the base fields and differ in stream", () => {
    expectTypeOf<ChatCompletionCreateParamsStreaming>().toExtend<ChatCompletionCreateParamsBase>();
    expectTypeOf<ChatCompletionCreateParamsNonStreaming>().toExtend<ChatCompletionCreateParamsBase>();
    expectTypeOf<ChatCompletionCreateParamsStreaming["stream"]>().toEqualTypeOf<true>();
    expectTypeOf<ChatCompletionCreateParamsNonStreaming["stream"]>().toEqualTypeOf<false | null | undefined>();
    expectTypeOf<ChatCompletionCreateParams>().toEqualTypeOf<
      ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming
    >();
  });
});

describe("the request types take what vLLM and Weave take", () => {
  it("stop as one string or a list, and null on nullable options", () => {
    expectTypeOf<{ messages: []; stop: "END" }>().toExtend<ChatCompletionCreateParamsBase>();
    expectTypeOf<{ messages: []; stop: ["a", "b"] }>().toExtend<ChatCompletionCreateParamsBase>();
    expectTypeOf<{
      messages: [];
      stop: null;
      logit_bias: null;
      response_format: null;
      stream_options: null;
      structured_outputs: null;
      tool_choice: null;
      chat_template_kwargs: null;
      kv_transfer_params: null;
      repetition_detection: null;
      mm_processor_kwargs: null;
      temperature: null;
      top_p: null;
      seed: null;
      max_tokens: null;
      max_completion_tokens: null;
      n: null;
      logprobs: null;
      top_logprobs: null;
    }>().toExtend<ChatCompletionCreateParamsBase>();
  });

  it("every reasoning effort, and both names of extension parameters", () => {
    expectTypeOf<ReasoningEffort>().toEqualTypeOf<"none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max">();
    expectTypeOf<ChatCompletionCreateParamsBase["reasoning_effort"]>().toEqualTypeOf<
      ReasoningEffort | null | undefined
    >();
    expectTypeOf<{
      messages: [];
      engine_xargs: { a: 1 };
      vllm_xargs: { b: ["x"] };
    }>().toExtend<ChatCompletionCreateParamsBase>();
  });

  it("any role as a custom message, and an assistant message with null content alone", () => {
    expectTypeOf<{ role: "ipython"; content: "42" }>().toExtend<ChatCompletionMessageParam>();
    expectTypeOf<{ role: "assistant"; content: null }>().toExtend<ChatCompletionMessageParam>();
  });

  it("both spellings of the renamed fields", () => {
    expectTypeOf<{
      svc_user_ids: ["u"];
      svc_run_ids: ["r"];
      wb_user_ids: ["u"];
      wb_run_ids: ["r"];
    }>().toExtend<CallsFilter>();
    expectTypeOf<{ project_id: "a/b"; latest_only: true }>().toExtend<CallsQueryParams>();
    expectTypeOf<{ variant_k2_tau: 0.5; kimi_k2_tau: 0.5 }>().toExtend<ExperimentalConfig>();
  });

  it("keeps the wire's snake_case names and required fields", () => {
    expectTypeOf<ChatCompletionCreateParamsBase>().toHaveProperty("max_completion_tokens");
    expectTypeOf<ChatCompletionCreateParamsBase["messages"]>().toEqualTypeOf<ChatCompletionMessageParam[]>();
    expectTypeOf<CallsQueryParams["project_id"]>().toEqualTypeOf<string>();
    expectTypeOf<TrainingJobCreateParams["model_id"]>().toEqualTypeOf<string>();
  });
});
