/**
 * Every endpoint the SDK declares, read from the declarations themselves (each
 * `src/wire/<area>/endpoints.ts`, and any other wire module that exports one, such as the Node
 * build's multipart upload): the one list the tests that cover "every endpoint" walk (telemetry
 * spans, case runners), so a new endpoint needs no line here.
 */
import { readdirSync } from "node:fs";
import type { Endpoint } from "../src/core/pipeline/endpoint.js";

const wire = new URL("../src/wire/", import.meta.url);
const modules: Record<string, unknown>[] = [];
for (const file of readdirSync(wire, { recursive: true }).map(String))
  if (file.endsWith(".ts") && !file.endsWith(".browser.ts")) modules.push(await import(new URL(file, wire).href));

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Endpoint).operation === "string" &&
  typeof (value as Endpoint).path === "string" &&
  typeof (value as Endpoint).method === "string";

/** The declared endpoints, by operation name. */
export const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map(
  modules
    .flatMap((m) => Object.values(m))
    .filter(isEndpoint)
    .map((ep) => [ep.operation, ep] as const),
);

/** The declaration of `operation`; throws when none declares it (a typo in a case row). */
export function endpointOf(operation: string): Endpoint {
  const ep = ENDPOINTS.get(operation);
  if (!ep) throw new Error(`no endpoint declares the operation ${operation}`);
  return ep;
}
