import type { SpanStarter } from "./telemetry.js";

/** Browser and edge build: no spans, so neither the span code nor the API enters a bundle. */
export async function loadSpanStarter(): Promise<SpanStarter | null> {
  return null;
}
