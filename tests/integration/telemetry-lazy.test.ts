/**
 * OpenTelemetry costs nothing until the app registers it: `@opentelemetry/api` is not imported
 * while its global registration is absent, and is imported once after it appears. A broken
 * tracer costs a request its span, never the request.
 */
import { afterAll, expect, it, vi } from "vitest";
import { useFakeService } from "./helpers.js";

const imports = vi.hoisted(() => ({ count: 0 }));
vi.mock("@opentelemetry/api", async (original) => {
  imports.count++;
  return await original();
});

const fake = useFakeService({ seedCalls: false });

const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");
afterAll(() => {
  delete (globalThis as Record<symbol, unknown>)[OTEL_GLOBAL];
});

it("does not import @opentelemetry/api until OpenTelemetry is registered, then once", async () => {
  expect(OTEL_GLOBAL in globalThis).toBe(false);
  await fake.client.models.list();
  await fake.client.models.list();
  expect(imports.count).toBe(0);

  // What `@opentelemetry/api` leaves on globalThis once anything is registered with it (here
  // with no tracer provider: the spans would not record, so none is made).
  (globalThis as Record<symbol, unknown>)[OTEL_GLOBAL] = { version: "1.9.0" };
  await fake.client.models.list();
  await fake.client.models.list();
  expect(imports.count).toBe(1);
});

it("still sends the request when the registered tracer throws", async () => {
  const broken = {
    getTracer: () => ({
      startSpan: () => {
        throw new Error("broken tracer");
      },
    }),
  };
  (globalThis as Record<symbol, unknown>)[OTEL_GLOBAL] = { version: "1.9.0", trace: broken };
  const models = await fake.client.models.list();
  expect(models.data.length).toBeGreaterThan(0);
});
