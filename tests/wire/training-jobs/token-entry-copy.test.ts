/**
 * Token logprob entries are copied by code that knows their shape (a large job holds millions):
 * whatever the entries are, the copy, the refusals and the reads must be those of the generic
 * copy, which is what JSON.stringify would send.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SealHooks, toJSONValue } from "../../../src/core/json/json-value.js";
import { RequestValidationError } from "../../../src/index.js";
import { tokenEntryCopier } from "../../../src/wire/training-jobs/token-entry-copy.js";

const withCopier: SealHooks = { depth: -1, at: () => false, seal: (copy) => copy, entries: tokenEntryCopier };

type Outcome = { copy: unknown; text: string } | { issues: unknown };

function outcome(params: unknown, hooks?: SealHooks): Outcome {
  try {
    const copy = toJSONValue(params, "request", hooks);
    return { copy, text: JSON.stringify(copy) };
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    return { issues: err.issues };
  }
}

/** Entries as a choice holds them, where the copier takes over. */
const job = (entries: unknown[], list: "content" | "refusal" = "content") => ({
  messages_and_choices: [{ index: 0, logprobs: { [list]: entries } }],
});

/** The copier's outcome, checked against the generic copy's on an identical, fresh input. */
function copied(make: () => unknown): Outcome {
  const fast = outcome(make(), withCopier);
  expect(fast).toStrictEqual(outcome(make()));
  return fast;
}

const PATH = "messages_and_choices.0.logprobs.content";

describe("the token entry copier", () => {
  it("copies vLLM's entries as JSON.stringify writes them", () => {
    const entries = () => [
      { token: " the", logprob: -0.25, bytes: [32, 116, 104, 101], top_logprobs: [] },
      { token: "é", logprob: -0, bytes: null, top_logprobs: [{ token: "e", logprob: -3.5, bytes: [101] }] },
    ];
    const result = copied(() => job(entries()));
    expect(result).toMatchObject({ text: JSON.stringify(job(entries())) });
  });

  it("copies any entry as the generic copy does (arbitrary values, boxed, dated, sparse, null-prototype)", async () => {
    const anything = fc.anything({
      maxDepth: 3,
      withBoxedValues: true,
      withDate: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBigInt: true,
      withMap: true,
      withTypedArray: true,
    });
    const field = fc.oneof(
      anything,
      fc.double(),
      fc.constantFrom(undefined, Number.NaN, Infinity, () => 1),
      fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), anything), { maxLength: 4 }),
    );
    // vLLM's shape (some fields left out), its alternatives, or anything at all.
    const alternative = fc.record({ token: field, logprob: field, bytes: field }, { requiredKeys: [] });
    const entry = fc.oneof(
      fc.record(
        { token: field, logprob: field, bytes: field, top_logprobs: fc.oneof(field, fc.array(alternative)) },
        { requiredKeys: [] },
      ),
      anything,
    );
    await fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), fc.constantFrom("content", "refusal"), (entries, list) => {
        const fast = outcome(job(entries, list), withCopier);
        expect(fast).toStrictEqual(outcome(job(entries, list)));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves entries and lists with a toJSON, or of another class, to the generic copy", () => {
    class Logprob {
      constructor(
        readonly token: string,
        readonly logprob: number,
        readonly bytes: number[],
        readonly top_logprobs: unknown[],
      ) {}
    }
    class Bytes extends Array<number> {
      toJSON() {
        return "bytes";
      }
    }
    const hidden = <T extends object>(value: T, toJSON: () => unknown): T =>
      Object.defineProperty(value, "toJSON", { value: toJSON, enumerable: false });
    const result = copied(() =>
      job([
        { token: "a", logprob: -1, bytes: Object.assign([1], { toJSON: () => [2] }), top_logprobs: [] },
        hidden({ token: "a", logprob: -1, bytes: null, top_logprobs: [] }, () => "hidden"),
        {
          token: "a",
          logprob: -1,
          bytes: null,
          top_logprobs: [hidden({ token: "b", logprob: -1, bytes: null }, () => 8)],
        },
        Object.assign(new Number(5), { token: "a", logprob: -1, bytes: null, top_logprobs: [] }),
        { token: "a", logprob: -1, bytes: Bytes.from([1]), top_logprobs: Object.assign([], { toJSON: () => null }) },
        {
          token: "a",
          logprob: -1,
          bytes: null,
          top_logprobs: [{ token: "b", logprob: -1, bytes: [1], toJSON: () => 7 }],
        },
        new Logprob("a", -1, [1], []),
        { token: "a", logprob: -1, bytes: null, top_logprobs: [], toJSON: () => "entry" },
      ]),
    );
    expect(result).toMatchObject({
      text: `{"messages_and_choices":[{"index":0,"logprobs":{"content":[${[
        '{"token":"a","logprob":-1,"bytes":[2],"top_logprobs":[]}',
        '"hidden"',
        '{"token":"a","logprob":-1,"bytes":null,"top_logprobs":[8]}',
        "5",
        '{"token":"a","logprob":-1,"bytes":"bytes","top_logprobs":null}',
        '{"token":"a","logprob":-1,"bytes":null,"top_logprobs":[7]}',
        '{"token":"a","logprob":-1,"bytes":[1],"top_logprobs":[]}',
        '"entry"',
      ].join(",")}]}}]}`,
    });
  });

  it("reads every getter, index and toJSON once, and sends what it read", () => {
    const reads = new Map<string, number>();
    // Each read answers differently: `t1`, then `t2`...
    const read = (name: string, value: string) => {
      reads.set(name, (reads.get(name) ?? 0) + 1);
      return `${value}${reads.get(name)}`;
    };
    const make = () => {
      reads.clear();
      const bytes = [1, 2];
      Object.defineProperty(bytes, 1, { get: () => Number(read("bytes.1", "2").slice(0, 1)), enumerable: true });
      return job([
        {
          get token() {
            return read("token", "t");
          },
          get logprob() {
            return -Number(read("logprob", "1"));
          },
          bytes,
          top_logprobs: [
            {
              get token() {
                return read("top.token", "u");
              },
              logprob: -2,
              bytes: null,
            },
          ],
        },
        { toJSON: (key: string) => ({ token: read("toJSON", key), logprob: -1 }) },
      ]);
    };
    const result = outcome(make(), withCopier);
    expect(Object.fromEntries(reads)).toEqual({ token: 1, logprob: 1, "bytes.1": 1, "top.token": 1, toJSON: 1 });
    expect(result).toStrictEqual(outcome(make()));
    expect(result).toMatchObject({
      copy: job([
        { token: "t1", logprob: -11, bytes: [1, 2], top_logprobs: [{ token: "u1", logprob: -2, bytes: null }] },
        { token: "11", logprob: -1 },
      ]),
    });
  });

  it("reads a proxy's fields once each", () => {
    const gets: string[] = [];
    const make = () => {
      gets.length = 0;
      const target = { token: "a", logprob: -1, bytes: [97], top_logprobs: [] };
      const get = (t: typeof target, k: string | symbol, r: unknown) => {
        gets.push(String(k));
        return Reflect.get(t, k, r);
      };
      return job([new Proxy(target, { get })]);
    };
    const result = outcome(make(), withCopier);
    expect(gets.sort()).toEqual(["bytes", "logprob", "toJSON", "token", "top_logprobs"]);
    expect(result).toStrictEqual(outcome(make()));
  });

  it("refuses cycles through an entry, its bytes and its alternatives at the generic copy's path", () => {
    const selfTop = () => {
      const entries: Record<string, unknown>[] = [{ token: "a", logprob: -1, bytes: null, top_logprobs: [] }];
      (entries[0]!["top_logprobs"] as unknown[]).push(entries[0]);
      return job(entries);
    };
    const listAsBytes = () => {
      const entries: unknown[] = [];
      entries.push({ token: "a", logprob: -1, bytes: entries, top_logprobs: [] });
      return job(entries);
    };
    const topAsBytes = () => {
      const top: unknown[] = [];
      top.push({ token: "b", logprob: -2, bytes: top });
      return job([{ token: "a", logprob: -1, bytes: null, top_logprobs: top }]);
    };
    const listAsTop = () => {
      const entries: unknown[] = [];
      entries.push({ token: "a", logprob: -1, bytes: null, top_logprobs: entries });
      return job(entries);
    };
    const ancestor = () => {
      const choice = { index: 0, logprobs: { content: [] as unknown[] } };
      choice.logprobs.content.push({ token: "a", logprob: -1, bytes: null, top_logprobs: [choice] });
      return { messages_and_choices: [choice] };
    };
    const paths = [selfTop, listAsBytes, topAsBytes, listAsTop, ancestor].map((make) => {
      const result = copied(make) as { issues: { path: string; message: string }[] };
      expect(result.issues[0]!.message).toMatch(/cycle/);
      return result.issues[0]!.path;
    });
    expect(paths).toEqual([
      `${PATH}.0.top_logprobs.0`,
      `${PATH}.0.bytes`,
      `${PATH}.0.top_logprobs.0.bytes`,
      `${PATH}.0.top_logprobs`,
      `${PATH}.0.top_logprobs.0`,
    ]);
  });

  it("refuses NaN, Infinity and BigInt inside an entry at their path", () => {
    const cases: [unknown, string][] = [
      [{ token: "a", logprob: Number.NaN, bytes: null, top_logprobs: [] }, "0.logprob"],
      [{ token: "a", logprob: -1, bytes: [1, Infinity], top_logprobs: [] }, "0.bytes.1"],
      [
        { token: "a", logprob: -1, bytes: null, top_logprobs: [{ token: 1n, logprob: -1, bytes: null }] },
        "0.top_logprobs.0.token",
      ],
    ];
    for (const [entry, path] of cases) {
      const result = copied(() => job([entry])) as { issues: { path: string }[] };
      expect(result.issues.map((i) => i.path)).toEqual([`${PATH}.${path}`]);
    }
  });
});
