// The page script: bundled by the test with esbuild and served on loopback. It streams one chat
// reply (with logprobs) from the fake service into the page. The import below names the sources so that the
// type-check (which runs before any build) sees the types; the bundler swaps it for the package
// `inferloop`, resolved like a user's bundler does (exports map, `browser` condition), which
// gives dist/browser.js.
import { Inferloop } from "../../src/index.js";

const params = new URLSearchParams(location.search);
const reply = document.getElementById("reply")!;
const status = document.getElementById("status")!;
const prompt = params.get("prompt") ?? "";
document.getElementById("prompt")!.textContent = prompt;

async function run(): Promise<void> {
  const client = new Inferloop({ baseURL: params.get("baseURL")!, apiKey: params.get("apiKey")!, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: params.get("model")!,
    messages: [{ role: "user", content: prompt }],
    stream: true,
    logprobs: true,
    top_logprobs: 2,
  });
  let deltas = 0;
  for await (const text of stream.textStream()) {
    reply.textContent += text;
    deltas += 1;
    status.textContent = `streaming… ${deltas} deltas`;
  }
  // The browser build keeps a streamed choice's logprobs as received (no packing there).
  const completion = await stream.finalCompletion();
  document.body.dataset["logprobs"] = JSON.stringify(completion.choices[0]?.logprobs ?? null);
  status.textContent = `done: ${deltas} deltas, request ${stream.requestId ?? "(no id)"}`;
  document.body.dataset["deltas"] = String(deltas);
  document.body.dataset["state"] = "done";
}

run().catch((error: unknown) => {
  status.textContent = `error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  document.body.dataset["state"] = "error";
});
