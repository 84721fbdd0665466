// The relay page of docs/browser.md: it creates no client and holds no key; it reads the NDJSON
// stream its own server relays (`POST <path>` on the page's origin) with
// `ChatCompletionStream.fromReadableStream()`. Bundled by the test like page.ts: the import
// below becomes the package `inferloop` (exports map, `browser` condition).
import { ChatCompletionStream } from "../../src/index.js";

const params = new URLSearchParams(location.search);
const reply = document.getElementById("reply")!;
const status = document.getElementById("status")!;
const prompt = params.get("prompt") ?? "";
document.getElementById("prompt")!.textContent = prompt;

async function run(): Promise<void> {
  const res = await fetch(params.get("path") ?? "/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt }),
  });
  if (!res.ok || !res.body) throw new Error(`relay answered ${res.status}`);
  const stream = ChatCompletionStream.fromReadableStream(res.body);
  let deltas = 0;
  for await (const text of stream.textStream()) {
    reply.textContent += text;
    deltas += 1;
    status.textContent = `streaming… ${deltas} deltas`;
  }
  const completion = await stream.finalCompletion();
  status.textContent = `done: ${deltas} deltas, finish_reason ${completion.choices[0]?.finish_reason}`;
  document.body.dataset["deltas"] = String(deltas);
  document.body.dataset["state"] = "done";
}

run().catch((error: unknown) => {
  status.textContent = `error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  const e = error as { status?: unknown };
  if (typeof e.status === "number") document.body.dataset["status"] = String(e.status);
  document.body.dataset["state"] = "error";
});
