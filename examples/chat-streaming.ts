/**
 * Stream a chat reply to the terminal as it arrives, then read the accumulated completion.
 *
 *   npx tsx chat-streaming.ts          (needs: npm install inferloop tsx)
 */
import { Inferloop } from "inferloop";
import { startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";

try {
  console.log(`Streaming a reply of ${model} from ${client.baseURL}`);
  // The fake service answers a message starting with "echo " with exactly the rest of it.
  const content = fake
    ? "echo Tokens arrive one by one, and each is printed right away."
    : "Count from one to ten in words.";

  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: "user", content }],
    stream: true,
    stream_options: { include_usage: true },
  });
  process.stdout.write("reply: ");
  for await (const text of stream.textStream()) process.stdout.write(text);
  process.stdout.write("\n");

  // The stream kept every chunk: finalCompletion() gives a whole ChatCompletion.
  const completion = await stream.finalCompletion();
  console.log(`finish_reason: ${completion.choices[0]?.finish_reason}, usage: ${JSON.stringify(completion.usage)}`);

  // Leaving the loop early closes the HTTP request; nothing is left running.
  const second = await client.chat.completions.create({ model, messages: [{ role: "user", content }], stream: true });
  let chunks = 0;
  for await (const chunk of second) {
    if (chunk.choices[0]?.delta.content) chunks += 1;
    if (chunks === 3) break;
  }
  console.log(`stopped a second stream after ${chunks} content chunks`);
} finally {
  await fake?.close();
}
