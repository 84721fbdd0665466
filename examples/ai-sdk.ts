/**
 * The AI SDK on inferloop: `generateText` and `streamText` through `createInferloopProvider`,
 * with vLLM's extras in `providerMetadata.inferloop` (logprobs, token ids, stop reason, request
 * id), a multi-step tool loop, structured output, a misspelt vLLM option refused before
 * sending, and the same agent captured into trajectories for training.
 *
 *   npx tsx ai-sdk.ts          (needs: npm install inferloop ai tsx)
 */
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { captureTrajectory, gatherTrajectoryGroups, Inferloop, RequestValidationError } from "inferloop";
import { createInferloopProvider, type InferloopProviderMetadata } from "inferloop/ai-sdk";
import { startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";

const tools = {
  get_weather: tool({
    description: "Current weather in a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: async ({ city }) => ({ city, celsius: 10 + ((city.length * 3) % 15) }),
  }),
};

try {
  console.log(`running against ${client.baseURL}`);
  const inferloop = createInferloopProvider({ client });

  // 1. generateText, asking vLLM for logprobs and token ids.
  const { text, providerMetadata, finishReason } = await generateText({
    model: inferloop(model),
    prompt: "Say something about tokens.",
    maxOutputTokens: 32,
    providerOptions: { inferloop: { logprobs: true, top_logprobs: 2, return_token_ids: true } },
  });
  const meta = providerMetadata?.["inferloop"] as unknown as InferloopProviderMetadata;
  console.log(`generateText: ${text}`);
  console.log(
    `  finish ${finishReason} (vLLM: ${meta.finish_reason}), ${meta.token_ids?.length} token ids, ` +
      `first logprob ${meta.logprobs?.[0]?.logprob.toFixed(3)}, request id ${meta.request_id}`,
  );

  // 2. streamText: text as it arrives; usage and metadata at the end.
  const streamed = streamText({ model: inferloop(model), prompt: "Stream a short sentence.", maxOutputTokens: 32 });
  process.stdout.write("streamText: ");
  for await (const delta of streamed.textStream) process.stdout.write(delta);
  console.log(`\n  ${(await streamed.usage).outputTokens} output tokens`);

  // 3. A tool loop: the model calls get_weather, the AI SDK runs it, the model answers.
  const agentRun = await generateText({
    model: inferloop(model),
    prompt: "What does get_weather say for Paris?",
    tools,
    stopWhen: stepCountIs(3),
  });
  const calls = agentRun.steps.flatMap((s) => s.toolCalls.map((c) => `${c.toolName}(${JSON.stringify(c.input)})`));
  console.log(`tool loop: ${agentRun.steps.length} steps, called ${calls.join(", ")}; answer: ${agentRun.text}`);

  // 4. Structured output: response_format json_schema, parsed and checked by the AI SDK.
  const { output } = await generateText({
    model: inferloop(model),
    // The fake service echoes what follows "echo "; a real model is asked for the JSON.
    prompt: 'echo {"city":"Lima","celsius":19}',
    output: Output.object({
      schema: jsonSchema<{ city: string; celsius: number }>({
        type: "object",
        properties: { city: { type: "string" }, celsius: { type: "number" } },
        required: ["city", "celsius"],
      }),
    }),
  });
  console.log(`structured output: ${output.city} ${output.celsius} °C`);

  // 5. A misspelt vLLM option is refused before anything is sent.
  try {
    await generateText({ model: inferloop(model), prompt: "Hi", providerOptions: { inferloop: { top_kk: 20 } } });
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    console.log(`refused before sending: ${error.issues[0]?.path}: ${error.issues[0]?.message}`);
  }

  // 6. The same agent, captured: each rollout becomes a trajectory, ready for a training job.
  const groups = await gatherTrajectoryGroups([
    Array.from(
      { length: 3 },
      (_, seed) => () =>
        captureTrajectory(
          async () => {
            const run = await generateText({
              model: inferloop(model),
              prompt: "What does get_weather say for Oslo?",
              tools,
              stopWhen: stepCountIs(3),
              seed,
            });
            return run.steps.length > 1 ? 1 : 0;
          },
          { logprobs: true },
        ),
    ),
  ]);
  const t = groups[0]!.trajectories[0]!;
  const turns = t.messages_and_choices.map((m) => ("role" in m ? m.role : "choice")).join(" → ");
  console.log(
    `captured ${groups[0]!.trajectories.length} rollouts; rewards ${groups[0]!.trajectories.map((x) => x.reward).join(", ")}; turns: ${turns}`,
  );
} finally {
  await fake?.close();
}
