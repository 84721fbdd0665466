// Bun with OpenTelemetry registered: one chat call and one stream make one span each.
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Inferloop } from "inferloop";

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const config = JSON.parse(process.env.INFERLOOP_RUNTIME_CONFIG);
const client = new Inferloop({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries: 0 });
const params = { model: config.model, messages: [{ role: "user", content: "echo one two three" }] };
await client.chat.completions.create(params);
const stream = await client.chat.completions.create({ ...params, stream: true });
for await (const _ of stream);
console.log(
  JSON.stringify({
    resolved: import.meta.resolve("inferloop"),
    spans: exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes })),
  }),
);
