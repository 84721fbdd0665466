import type { Inferloop } from "../../src/index.js";

/**
 * One row format for every table of requests and what the real server does with them. A row
 * names a declared operation (`src/wire/<area>/endpoints.ts`) and the call as the user writes it;
 * the two runners read the method and path from that declaration, so a new endpoint's rows need
 * no runner change:
 * - the SDK's (`tests/wire/request-cases.test.ts`): refused ⇒ `RequestValidationError` naming the
 *   field, nothing sent; sent ⇒ the body (or query) goes out as written (or as `sdkSends`), with
 *   the warnings `sdkWarns` names and no other;
 * - the fake's (`tests/testing/request-cases.test.ts`): the fake answers the real server's status
 *   in its error envelope (FastAPI's 422 `detail` list, vLLM's `error` object).
 * A table is any `export const ..._REQUEST_CASES` of `RequestCase[]` in `tests/cases/`.
 */
export interface RequestCase {
  name: string;
  /** The declared operation (`annotation_queues.create`). */
  operation: string;
  /** The path's `{name}`s, when it has any. */
  pathArguments?: Record<string, string>;
  /** The parameters as the user writes them, complete. */
  params: Record<string, unknown>;
  /**
   * What the real server answers, and so the fake: accepted (200), or refused with this status
   * (and a reason containing `reason`). Where the answer depends on how the server was started
   * (a flag such as vLLM's `--max-logprobs`), what the server the fake models answers: a default
   * one, except where the fake's options say otherwise (a tool-calling vLLM).
   */
  real: { accepted: true } | { status: number; reason?: string };
  /**
   * What the SDK does, apart from `real`: refuses it before sending, naming this field (every
   * row the server refuses by its request model, and rows the server takes but would silently
   * drop part of, as a misspelt key), or sends it (every row the server takes as meant, and rows
   * whose refusal depends on the server's flags, which the SDK cannot know).
   */
  sdk: "sends" | { refuses: string };
  /** When the SDK fills in a member, the body it sends instead of `params` (the row holds for it). */
  sdkSends?: Record<string, unknown>;
  /** The codes of the warnings the SDK emits as it sends the row (a finding); none when absent. */
  sdkWarns?: readonly string[];
  /**
   * Fake side only: makes what the real server would hold before the row is sent (a model, a
   * job, a dataset), through the SDK's client of the fresh fake. It returns the ids it made by the
   * example ids the row uses in `params` and `pathArguments`, which the fake's runner puts in
   * their place. The SDK's side sends the example ids as they are.
   */
  given?: (fake: Inferloop) => Promise<Record<string, string>>;
  /** The file of the real server the rule comes from. */
  source: string;
  /** The rule, when `source` alone does not say it. */
  why?: string;
}

/** The request-case tables of `tests/cases/`, found by their export names. */
export async function requestCaseTables(): Promise<Array<[string, readonly RequestCase[]]>> {
  const { readdirSync } = await import("node:fs");
  const dir = new URL("./", import.meta.url);
  const tables: Array<[string, readonly RequestCase[]]> = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith("-cases.ts"))) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module))
      if (name.endsWith("_REQUEST_CASES")) tables.push([name, value as readonly RequestCase[]]);
  }
  return tables;
}
