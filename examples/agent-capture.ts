/**
 * Train on an agent you already have. The agent below is plain `openai` client code with a tool
 * and several turns; nothing in it knows about training. `captureTrajectory` records each run
 * (every request's messages, every reply with its logprobs and token ids) through the client's
 * `fetch: capturingFetch()`, the score it returns becomes the reward, and the gathered groups go
 * to a training job as they are.
 *
 *   npx tsx agent-capture.ts          (needs: npm install inferloop openai tsx)
 *
 * Against your own service: INFERLOOP_MODEL names the model, INFERLOOP_TRAINING_MODEL_ID the
 * trainable model to train.
 */
import { captureTrajectory, capturingFetch, gatherTrajectoryGroups, Inferloop } from "inferloop";
import { startFakeService } from "inferloop/testing";
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback (any UUID is a model there).
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";
const trainingModelId = process.env.INFERLOOP_TRAINING_MODEL_ID ?? (fake ? crypto.randomUUID() : undefined);

const CITIES = ["Paris", "Lima", "Oslo"];
const ROLLOUTS_PER_CITY = 3;

const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather in a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

// The tool the agent runs for the model.
const weather = (city: string) => ({ city, celsius: 10 + ((city.length * 3) % 15), sky: "clear" });

/** The agent: ask, run the tools the model calls, answer (at most 3 model calls). */
async function agent(
  openai: OpenAI,
  model: string,
  city: string,
  seed: number,
): Promise<{ answer: string; toolCalls: number }> {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: "Answer weather questions. Use get_weather first." },
    { role: "user", content: `What does get_weather say for ${city}?` },
  ];
  let toolCalls = 0;
  for (let step = 0; step < 3; step++) {
    const reply = await openai.chat.completions.create({
      model,
      messages,
      tools,
      // The first rollout of each city explores answering without the tool; the last step
      // answers in words.
      tool_choice: step === 2 || seed === 0 ? "none" : "auto",
      seed,
      max_completion_tokens: 64,
    });
    const message = reply.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return { answer: message.content ?? "", toolCalls };
    for (const call of message.tool_calls) {
      if (call.type !== "function") continue;
      toolCalls++;
      const args = JSON.parse(call.function.arguments) as { city?: string };
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(weather(args.city ?? city)) });
    }
  }
  return { answer: "", toolCalls };
}

/** The reward: half for using the tool, half for a short answer (about 8 words). */
function score({ answer, toolCalls }: { answer: string; toolCalls: number }): number {
  const words = answer.split(/\s+/).filter(Boolean).length;
  const brevity = words === 0 ? 0 : Math.max(0, 1 - Math.abs(words - 8) / 8);
  return Math.round(((toolCalls > 0 ? 0.5 : 0) + 0.5 * brevity) * 100) / 100;
}

try {
  console.log(`running against ${client.baseURL}`);
  // The agent's own client, pointed at the same OpenAI-compatible endpoint, recording through fetch.
  const apiKey = fake?.apiKey ?? process.env.INFERLOOP_API_KEY ?? process.env.WANDB_API_KEY ?? "";
  const openai = new OpenAI({ baseURL: `${client.baseURL}/v1`, apiKey, fetch: capturingFetch() });

  const groups = await gatherTrajectoryGroups(
    CITIES.map((city) =>
      Array.from(
        { length: ROLLOUTS_PER_CITY },
        (_, seed) => () =>
          captureTrajectory(async () => score(await agent(openai, model, city, seed)), {
            metadata: { city, seed },
            logprobs: true,
          }),
      ),
    ),
    { concurrency: 4 },
  );

  for (const [i, group] of groups.entries()) {
    const t = group.trajectories.at(-1)!;
    const turns = t.messages_and_choices.map((m) => ("role" in m ? m.role : "choice")).join(" → ");
    console.log(`${CITIES[i]}: rewards ${group.trajectories.map((x) => x.reward).join(", ")}; last rollout: ${turns}`);
  }
  const choices = groups
    .flatMap((g) => g.trajectories)
    .flatMap((t) => t.messages_and_choices.filter((m) => !("role" in m)));
  console.log(`captured ${choices.length} sampled turns, each with logprobs and token ids`);

  if (!trainingModelId) console.log("training skipped: no model id (set INFERLOOP_TRAINING_MODEL_ID)");
  else {
    const job = await client.trainingJobs.create({ model_id: trainingModelId, trajectory_groups: groups });
    console.log(`created training job ${job.id} from ${groups.length} groups of captured rollouts`);
  }
} finally {
  await fake?.close();
}
