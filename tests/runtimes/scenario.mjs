// What every runtime does with the installed package, against the fake service running in
// Node on loopback: stream a reply, get a final completion, page through call records, and
// get a typed error for a 429 after the retries; run a tool described by a plain JSON Schema
// (its validator loads and checks arguments there); and the AI SDK provider of
// `inferloop/ai-sdk`, called as the AI SDK calls a model (plain and streamed). Plain JavaScript, copied into the
// consumer project as is, so each runtime loads `inferloop` the way an app there would.
import { APIError, Inferloop, InferloopError, RateLimitError, tool } from "inferloop";
import { createInferloopProvider } from "inferloop/ai-sdk";

/** @param {{ baseURL: string, traceBaseURL?: string, apiKey: string, username: string, password: string, model: string, project: string }} config */
export async function scenario(config) {
  const client = new Inferloop({
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    username: config.username,
    password: config.password,
    maxRetries: 2,
  });
  const params = { model: config.model, messages: [{ role: "user", content: "Hello from another runtime" }] };

  const stream = await client.chat.completions.create({ ...params, stream: true });
  let streamed = "";
  for await (const text of stream.textStream()) streamed += text;

  const final = await (await client.chat.completions.create({ ...params, stream: true })).finalCompletion();

  const pages = [];
  for await (const page of client.calls.query({ project_id: config.project }, { pageSize: 100 }).pages())
    pages.push(page.length);

  // The test queued three 429s for /v1/models: the first try and both retries get one.
  let rateLimited = null;
  try {
    await client.models.list();
  } catch (error) {
    rateLimited = {
      name: error?.name,
      rateLimitError: error instanceof RateLimitError,
      apiError: error instanceof APIError,
      inferloopError: error instanceof InferloopError,
      status: error?.status,
    };
  }

  const aiSdk = await aiSdkScenario(client, config.model);
  const tools = await toolScenario(client, config.model);

  return {
    aiSdk,
    tools,
    streamed,
    final: { content: final.choices[0]?.message.content, finishReason: final.choices[0]?.finish_reason },
    pages,
    rateLimited,
  };
}

/** runTools with a JSON Schema tool: the fake calls it validly; a made-up call is refused. */
async function toolScenario(client, model) {
  const calc = tool({
    name: "calc",
    parameters: {
      type: "object",
      properties: { op: { enum: ["+", "*"] }, a: { type: "number" }, b: { type: "number" } },
      required: ["op", "a", "b"],
    },
    run: ({ op, a, b }) => (op === "+" ? a + b : a * b),
  });
  const run = client.chat.completions.runTools({
    model,
    messages: [{ role: "user", content: "What is 12 * 7? Use calc." }],
    tools: [calc],
  });
  const { messages } = await run.done();
  const refused = await calc.validate({ op: "Use", a: 1, b: 2 });
  return { answer: messages.at(-1)?.content, issues: refused.issues?.map((i) => [i.path?.join("."), i.message]) };
}

/** The provider's model, called as `generateText` and `streamText` call it. */
async function aiSdkScenario(client, modelId) {
  const model = createInferloopProvider({ client })(modelId);
  const prompt = [{ role: "user", content: [{ type: "text", text: "echo Hello from the AI SDK provider" }] }];
  const providerOptions = { inferloop: { return_token_ids: true } };
  const generated = await model.doGenerate({ prompt, providerOptions });
  const { stream } = await model.doStream({ prompt, providerOptions });
  let streamed = "";
  let finish;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") streamed += value.delta;
    if (value.type === "finish") finish = value;
  }
  return {
    text: generated.content.find((p) => p.type === "text")?.text,
    tokenIds: generated.providerMetadata.inferloop.token_ids.length,
    streamed,
    streamedTokenIds: finish?.providerMetadata.inferloop.token_ids.length,
    finishReason: finish?.finishReason.unified,
  };
}
