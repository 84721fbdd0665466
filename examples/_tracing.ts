/**
 * Traces the examples' chat calls to the trace server, as an app would: inferloop's GenAI spans
 * (with message content) exported by OpenTelemetry's OTLP protobuf exporter to the trace
 * server's `/otel/v1/traces`, routed to a project by the `wandb.entity` / `wandb.project`
 * resource attributes. Then the review step can query and annotate the calls it made itself.
 */
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { CallRecord } from "../src/index.js";
import type { ExampleService } from "./_service.js";

export interface Tracing {
  /** When tracing began: calls traced by this run started after it. */
  since: string;
  /** Sends every span ended so far, then returns the chat calls traced since `since`. */
  tracedChatCalls(): Promise<CallRecord[]>;
  stop(): Promise<void>;
}

/** Starts exporting spans to the service's trace host, into `service.projectId`. */
export function startTracing(service: ExampleService): Tracing | undefined {
  const { client, fake, projectId } = service;
  if (!projectId) return undefined;
  const [entity, project] = projectId.split("/");
  // The trace routes' own auth: the W&B API key (Basic `api:<key>` works too).
  const apiKey = fake ? fake.password : (process.env.INFERLOOP_PASSWORD ?? process.env.INFERLOOP_API_KEY ?? "");
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": "inferloop-example",
      "wandb.entity": entity,
      "wandb.project": project,
    }),
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPTraceExporter({ url: `${client.traceBaseURL}/otel/v1/traces`, headers: { "wandb-api-key": apiKey } }),
      ),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  const since = new Date().toISOString();
  return {
    since,
    async tracedChatCalls() {
      await provider.forceFlush();
      const calls: CallRecord[] = [];
      for await (const call of client.calls.query({ project_id: projectId }))
        if (call.op_name.startsWith("chat ") && call.started_at >= since) calls.push(call);
      return calls;
    },
    async stop() {
      trace.disable();
      await provider.shutdown();
    },
  };
}

/** The prompt (last user message) and the reply of a chat call traced as a GenAI span. */
export function tracedChat(call: CallRecord): { prompt: string; reply: string } {
  const messages = JSON.parse(String(call.inputs["gen_ai.input.messages"] ?? "[]")) as Array<{ content: string }>;
  const output = (call.output ?? {}) as Record<string, string>;
  const replies = JSON.parse(output["gen_ai.output.messages"] ?? "[]") as Array<{ content: string }>;
  return { prompt: messages.at(-1)?.content ?? "", reply: replies[0]?.content ?? "" };
}
