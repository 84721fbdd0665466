// What every runtime does with the installed package, against the fake service running in
// Node on loopback: stream a reply, get a final completion, page through call records, and
// get a typed error for a 429 after the retries. Plain JavaScript, copied into the consumer
// project as is, so each runtime loads `inferloop` the way an app there would.
import { APIError, Inferloop, InferloopError, RateLimitError } from "inferloop";

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

  return {
    streamed,
    final: { content: final.choices[0]?.message.content, finishReason: final.choices[0]?.finish_reason },
    pages,
    rateLimited,
  };
}
