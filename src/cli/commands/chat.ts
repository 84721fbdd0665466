// `inferloop chat "prompt"`: one chat completion, streamed to stdout as it arrives.
import type { ChatCompletionMessageParam } from "../../index.js";
import { argument, type Command, intOption, stringOption } from "../command.js";
import { UsageError } from "../exit-codes.js";

export const chat: Command = {
  name: "chat",
  summary: "send one prompt and stream the reply",
  description: `Sends the prompt as a user message and writes the reply to stdout as it streams in. Without
--model, the first model of GET /v1/models answers (the one a vLLM serves). With --json,
nothing is written until the reply is complete; then the whole completion (choices, usage,
request id...) is written as one JSON document.`,
  arguments: [{ name: "prompt", description: "the user message" }],
  options: {
    model: { type: "string", short: "m", value: "id", description: "the model (default: the first one listed)" },
    system: { type: "string", value: "text", description: "a system message before the prompt" },
    "max-tokens": { type: "string", value: "n", description: "max_completion_tokens of the reply" },
  },
  examples: [
    'inferloop chat "Write a haiku about retries." --model Qwen/Qwen3-8B',
    'inferloop chat "echo hi" --json | jq .usage',
  ],
  async run(input, { client, signal, stdout, stderr }) {
    const prompt = argument(input, "prompt");
    const maxTokens = intOption(input, "max-tokens", { min: 1 });
    const system = stringOption(input, "system");
    let model = stringOption(input, "model");
    if (model === undefined) {
      const { data } = await client().models.list({ signal });
      model = data[0]?.id;
      if (model === undefined) throw new UsageError("the service lists no models: pass --model");
      if (!input.json) await stderr.line(`(model ${model}: the first listed; --model picks another)`);
    }
    const messages: ChatCompletionMessageParam[] = [
      ...(system !== undefined ? [{ role: "system" as const, content: system }] : []),
      { role: "user", content: prompt },
    ];
    const stream = await client().chat.completions.create(
      {
        model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
      },
      { signal },
    );
    if (input.json) {
      await stdout.json(await stream.finalCompletion());
      return 0;
    }
    let last = "";
    for await (const text of stream.textStream()) {
      await stdout.text(text);
      last = text;
    }
    if (!last.endsWith("\n")) await stdout.text("\n");
    return 0;
  },
};
