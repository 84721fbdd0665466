/**
 * Structured output: describe the reply with a zod schema, get it back parsed and typed.
 *
 *   npx tsx structured-output.ts          (needs: npm install inferloop zod tsx)
 */
import { ContentParseError, Inferloop, zodResponseFormat } from "inferloop";
import { startFakeService } from "inferloop/testing";
import { z } from "zod";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";

const Weather = z.object({
  city: z.string(),
  celsius: z.number(),
  conditions: z.enum(["sunny", "cloudy", "rain", "snow"]),
});

try {
  // The fake service echoes the text after "echo ", so here it "answers" with this JSON.
  const content = fake
    ? `echo ${JSON.stringify({ city: "Paris", celsius: 18.5, conditions: "cloudy" })}`
    : "Give the current weather in Paris as JSON.";

  const completion = await client.chat.completions.parse({
    model,
    messages: [{ role: "user", content }],
    response_format: zodResponseFormat(Weather, "weather", { description: "Weather report for one city" }),
  });
  const weather = completion.choices[0]?.message.parsed;
  if (!weather) throw new Error("no parsed reply");
  // `weather` is typed { city: string; celsius: number; conditions: "sunny" | ... }.
  console.log(`parsed: ${weather.city}: ${weather.celsius} °C, ${weather.conditions}`);

  // A reply that does not match the schema rejects with ContentParseError.
  if (fake) {
    try {
      await client.chat.completions.parse({
        model,
        messages: [{ role: "user", content: `echo ${JSON.stringify({ city: "Oslo", celsius: "cold" })}` }],
        response_format: zodResponseFormat(Weather, "weather"),
      });
    } catch (err) {
      if (!(err instanceof ContentParseError)) throw err;
      console.log(`refused reply: ${err.message}`);
    }
  }
} finally {
  await fake?.close();
}
