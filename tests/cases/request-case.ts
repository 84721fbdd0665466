/**
 * One row format for every table of requests and what the real server does with them. A row
 * names a declared operation (`src/wire/<area>/endpoints.ts`) and the call as the user writes it;
 * the two runners read the method and path from that declaration, so a new endpoint's rows need
 * no runner change:
 * - the SDK's (`tests/wire/request-cases.test.ts`): refused ⇒ `RequestValidationError` naming the
 *   field, nothing sent; sent ⇒ the body goes out as written (or as `sdkSends`);
 * - the fake's (`tests/testing/request-cases.test.ts`): the fake answers the real server's status.
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
  /** What the real server answers: accepted, or refused with this status (and a reason containing `reason`). */
  real: { accepted: true } | { status: number; reason?: string };
  /** Whether the SDK refuses it before sending (and the field it names), or sends it. */
  sdk: "sends" | { refuses: string };
  /** When the SDK fills in a member, the body it sends instead of `params` (the row holds for it). */
  sdkSends?: Record<string, unknown>;
  /** The file of the real server the rule comes from. */
  source: string;
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
