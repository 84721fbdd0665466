/**
 * `quickAccepts` may only say "valid" where zod says valid, and should say it for every valid
 * request (or the fast path is not taken). Checked against `safeParse` on every request case
 * the SDK knows (the real-server and training tables) and on generated requests.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { type $ZodType, safeParse } from "zod/v4/core";
import { quickAccepts, ZOD_TESTED } from "../../src/core/checks/quick-accept.js";
import { toJSONValue } from "../../src/core/json/json-value.js";
import { annotationQueueItemProgressParamsSchema } from "../../src/wire/annotation-queues/request-schema.js";
import { callsQueryParamsSchema } from "../../src/wire/calls/request-schema.js";
import {
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsStreamingSchema,
  chatCompletionMessageParamSchema,
} from "../../src/wire/chat/request-schema.js";
import { sftTrainingJobCreateParamsSchema } from "../../src/wire/sft-training-jobs/request-schema.js";
import {
  checkpointDeleteParamsSchema,
  checkpointListParamsSchema,
  trainableModelCreateParamsSchema,
  trainableModelLogParamsSchema,
} from "../../src/wire/trainable-models/request-schema.js";
import { experimentalConfigSchema } from "../../src/wire/training-jobs/experimental-config.js";
import {
  trainingJobCreateParamsSchema,
  trainingJobEventListParamsSchema,
} from "../../src/wire/training-jobs/request-schema.js";
import { REAL_SERVER_REQUEST_CASES } from "../cases/real-server-cases.js";
import { TRAINING_REQUEST_CASES } from "../cases/training-api-cases.js";

/** What quickAccepts and zod say of `value`; `quick` must never be true where zod is false. */
function verdicts(schema: $ZodType, value: unknown): { zod: boolean; quick: boolean } {
  const zod = safeParse(schema, value).success;
  const quick = typeof value === "object" && value !== null && quickAccepts(schema, value);
  return { zod, quick };
}

/** The body as the SDK validates it: the JSON copy (values JSON cannot carry are refused before). */
function jsonCopy(request: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return toJSONValue(request, "test");
  } catch {
    return undefined;
  }
}

const CHAT_SCHEMAS = [
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsStreamingSchema,
] as $ZodType[];

describe("quickAccepts agrees with zod", () => {
  it("on every case of the real-server table, for the three chat schemas and the call query", () => {
    let valid = 0;
    for (const c of REAL_SERVER_REQUEST_CASES) {
      const body = jsonCopy(c.params);
      if (body === undefined) continue;
      const chat = c.operation === "chat.completions.create";
      const schemas = chat ? CHAT_SCHEMAS : [callsQueryParamsSchema as $ZodType];
      for (const schema of schemas) {
        const { zod, quick } = verdicts(schema, body);
        expect({ case: c.name, quick }).toEqual({ case: c.name, quick: zod });
        if (zod) valid++;
      }
    }
    expect(valid).toBeGreaterThan(100);
  });

  it("on every case of the training table", () => {
    const schemas: Record<string, $ZodType> = {
      "trainable_models.create": trainableModelCreateParamsSchema,
      "trainable_models.checkpoints.list": checkpointListParamsSchema,
      "trainable_models.checkpoints.delete": checkpointDeleteParamsSchema,
      "training_jobs.events.list": trainingJobEventListParamsSchema,
      "trainable_models.log": trainableModelLogParamsSchema,
      "training_jobs.create": experimentalConfigSchema,
      "sft_training_jobs.create": sftTrainingJobCreateParamsSchema,
    };
    for (const c of TRAINING_REQUEST_CASES) {
      // A job's rules are its experimental_config's (the groups are checked apart).
      const request = c.operation === "training_jobs.create" ? c.params["experimental_config"] : c.params;
      const { zod, quick } = verdicts(schemas[c.operation]!, request);
      expect({ case: c.name, quick }).toEqual({ case: c.name, quick: zod });
    }
  });

  it("on messages: a role's schema is picked by its tag, so the fast path reaches each message", () => {
    const messages: unknown[] = [
      { role: "user", content: "Hi" },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", content: "1", tool_call_id: "c" },
      { role: "developer", content: "Be brief" },
      { role: "user", content: "Hi", nmae: "ann" },
      { role: "user" },
      { role: "user", content: 7 },
      { role: "system", content: "x", name: "\ud800" },
    ];
    let valid = 0;
    for (const m of messages) {
      const { zod, quick } = verdicts(chatCompletionCreateParamsSchema, { messages: [m] });
      expect({ m, quick }).toEqual({ m, quick: zod });
      // The message schema alone agrees too (it is a tagged union, not an object: zod decides).
      expect(verdicts(chatCompletionMessageParamSchema, m).quick).toBe(false);
      if (zod) valid++;
    }
    expect(valid).toBe(6); // all but the near miss, the number and the lone surrogate
  });

  it("on the edges of zod's object walk: required keys, inherited keys, __proto__ and catch-alls", () => {
    const strict = z.strictObject({ a: z.string(), b: z.optional(z.number()) });
    const loose = z.looseObject({ a: z.string() });
    const stripped = z.object({ a: z.string() });
    const catchall = z.catchall(z.object({ a: z.optional(z.string()) }), z.number());
    const inherited = Object.assign(Object.create({ c: 1 }), { a: "x" });
    const proto = JSON.parse('{"a":"x","__proto__":1}');
    // `__proto__` is left to zod (its own rules for that key): the fast path says "not known".
    const leftToZod: [$ZodType, unknown][] = [
      [strict, proto],
      [loose, proto],
    ];
    for (const [schema, value] of leftToZod)
      expect(verdicts(schema, value)).toEqual({ zod: schema === loose, quick: false });
    const cases: [$ZodType, unknown][] = [
      [strict, { a: "x" }],
      [strict, { a: "x", b: undefined }],
      [strict, { b: 1 }],
      [strict, { a: "x", c: 1 }],
      [strict, inherited],
      [loose, { a: "x", c: { d: 1 } }],
      [stripped, { a: "x", c: 1 }],
      [catchall, { a: "x", c: 1 }],
      [catchall, { c: "not a number" }],
      [strict, []],
      [z.string(), {}],
    ];
    for (const [schema, value] of cases) {
      const { zod, quick } = verdicts(schema, value);
      expect({ value, quick }).toEqual({ value, quick: zod });
    }
  });

  it("on object checks: a cross-field rule that fails is not passed by the fast path", () => {
    const rules = [
      { messages: [{ role: "user", content: "x" }], top_logprobs: 2 },
      { messages: [{ role: "user", content: "x" }], stream_options: { include_usage: true } },
      { messages: [{ role: "user", content: "x" }], tool_choice: "required" },
      { messages: [{ role: "user", content: "caf\ud800" }] },
      { messages: [{ role: "user", content: "x" }], temperature: 0, n: 2 },
    ];
    for (const body of rules)
      expect(verdicts(chatCompletionCreateParamsSchema, body)).toEqual({ zod: false, quick: false });
  });

  it("on generated chat requests: an accepted request with one or two fields set to values of every JSON kind", () => {
    const keys = Object.keys((chatCompletionCreateParamsSchema as unknown as { def: { shape: object } }).def.shape);
    const accepted = REAL_SERVER_REQUEST_CASES.filter(
      (c) => c.operation === "chat.completions.create" && "accepted" in c.real && c.sdk === "sends",
    );
    const value = fc.oneof(
      fc.constantFrom(
        null,
        undefined,
        true,
        false,
        0,
        1,
        -1,
        0.5,
        2,
        3,
        64,
        -2,
        1e-6,
        2 ** 63,
        "",
        "x",
        "auto",
        "none",
      ),
      fc.constantFrom([], [""], ["a"], [1, 2], [-1], {}, { include_usage: true }, { type: "json_object" }, { "1": 2 }),
      fc.constantFrom(
        { type: "function", function: { name: "f" } },
        [{ role: "user", content: "Hi" }],
        [{ role: "x" }],
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const key = fc.oneof(fc.constantFrom(...keys), fc.constantFrom("max_completion_token", "extra", "__proto__"));
    const request = fc.record({
      base: fc.constantFrom(...accepted),
      changes: fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 2 }),
    });
    let acceptedCount = 0;
    let refused = 0;
    fc.assert(
      fc.property(request, ({ base, changes }) => {
        const changed: Record<string, unknown> = { ...base.params };
        for (const [k, v] of changes)
          Object.defineProperty(changed, k, { value: v, enumerable: true, configurable: true, writable: true });
        const body = jsonCopy(changed);
        if (body === undefined) return;
        for (const schema of CHAT_SCHEMAS) {
          const { zod, quick } = verdicts(schema, body);
          if (!Object.hasOwn(body, "__proto__")) expect(quick).toBe(zod);
          else expect(quick).toBe(false);
          if (zod) acceptedCount++;
          else refused++;
        }
      }),
      { numRuns: 4000 },
    );
    // Both verdicts are exercised: the generated requests are not all refused.
    expect(acceptedCount).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(200);
  });

  it("on other request schemas: the annotation progress and a training job leave the fast path to zod where it cannot judge", () => {
    expect(verdicts(annotationQueueItemProgressParamsSchema as $ZodType, { state: "completed" }).quick).toBe(
      safeParse(annotationQueueItemProgressParamsSchema, { state: "completed" }).success,
    );
    expect(verdicts(trainingJobCreateParamsSchema as $ZodType, {}).quick).toBe(false);
  });
});

describe("quickAccepts and zod's version", () => {
  it("runs on the zod minor its agreement was tested on: bump ZOD_TESTED only after these tests pass on a new one", () => {
    const schema = z.strictObject({ a: z.string() });
    expect(schema._zod.version).toMatchObject(ZOD_TESTED);
    expect(quickAccepts(schema, { a: "x" })).toBe(true);
  });

  it("leaves every value to safeParse under another zod minor, whose internals it does not know", () => {
    const schema = z.strictObject({ a: z.string() });
    const other = { ...schema._zod.version, minor: ZOD_TESTED.minor + 1 };
    Object.defineProperty(schema._zod, "version", { value: other });
    expect(quickAccepts(schema, { a: "x" })).toBe(false);
  });
});
