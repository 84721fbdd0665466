/**
 * Properties over generated requests, against the fake service on loopback:
 * - every request valid by construction is accepted and arrives exactly as given (one request,
 *   body deep-equal to the input as JSON);
 * - every mutation that breaks one rule is refused with RequestValidationError and NOTHING is
 *   sent (the service's request count does not move).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../../src/index.js";
import { useFakeService } from "../integration/helpers.js";
import { catchWarningsOfEachTest } from "../warnings.js";
import { guardProcess, settle, within } from "./harness.js";

guardProcess();

const RUNS = 100;
// The widest double inside int64 as vLLM reads the JSON text (2^63 itself is written as
// 9223372036854776000, above int64's maximum).
const INT64_MAX = 2 ** 63 - 1024;

const fake = useFakeService({}, { logLevel: "off" });
// Generated requests include the SDK's findings (bare op names, jobs that teach nothing): each
// may warn, and only with a finding's code.
catchWarningsOfEachTest([
  "INFERLOOP_BARE_OP_NAME",
  "INFERLOOP_IGNORED_SETTING",
  "INFERLOOP_SVC_USER_IDS",
  "INFERLOOP_SVC_RUN_IDS",
  "INFERLOOP_UNIFORM_REWARDS",
  "INFERLOOP_MISSING_REWARD",
  "INFERLOOP_NO_TRAJECTORIES",
  "INFERLOOP_MISSING_LOGPROBS",
]);

// ---------------------------------------------------------------------------------------------
// Arbitraries, valid by construction
// ---------------------------------------------------------------------------------------------

const text = fc.string({ maxLength: 40 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const segment = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).filter((s) => !/[/\s]/.test(s));
const projectId = fc.tuple(segment, segment).map(([a, b]) => `${a}/${b}`);

const chatMessage = fc.oneof(
  fc.record({ role: fc.constantFrom("system" as const, "developer" as const, "user" as const), content: text }),
  fc.record({
    role: fc.constant("user" as const),
    content: fc.array(fc.record({ type: fc.constant("text" as const), text }), { minLength: 1, maxLength: 2 }),
  }),
  fc.record({ role: fc.constant("assistant" as const), content: text }),
  fc.record({
    role: fc.constant("tool" as const),
    content: text,
    tool_call_id: fc.string({ minLength: 1, maxLength: 8 }),
  }),
);

const seed = fc.oneof(fc.integer(), fc.constantFrom(INT64_MAX, -INT64_MAX, 2 ** 53, -(2 ** 60)));

const chatRequest = fc
  .record(
    {
      model: fc.constantFrom("Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct"),
      messages: fc.array(chatMessage, { minLength: 1, maxLength: 4 }),
      temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: null }),
      top_p: fc.double({ min: 0.01, max: 1, noNaN: true }),
      seed: fc.option(seed, { nil: null }),
      n: fc.integer({ min: 1, max: 3 }),
      max_completion_tokens: fc.integer({ min: 1, max: 12 }),
      stop: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 2 }),
      logprobs: fc.boolean(),
      top_logprobs: fc.integer({ min: 0, max: 5 }),
      tool_choice: fc.constant("none" as const),
      reasoning_effort: fc.constantFrom("low" as const, "medium" as const, "high" as const),
      truncate_prompt_tokens: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 4096 })),
      continue_final_message: fc.boolean(),
      user: text,
      engine_xargs: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(text, fc.integer())),
      stream: fc.boolean(),
    },
    { requiredKeys: ["messages"] },
  )
  .map((r) => {
    // Cross-field rules: stream_options only with stream; never continue + generation prompt.
    const out: Record<string, unknown> = { ...r };
    if (r.stream === true) out.stream_options = { include_usage: true };
    if (r.continue_final_message === true) out.add_generation_prompt = false;
    // vLLM refuses top_logprobs without logprobs.
    if (r.top_logprobs !== undefined && r.top_logprobs > 0) out.logprobs = true;
    // Greedy sampling (temperature 0) gives one reply: vLLM refuses n > 1 with it.
    if (r.temperature != null && r.temperature < 1e-5) out.n = 1;
    return out;
  });

const callsQuery = fc.record(
  {
    project_id: projectId,
    limit: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
    offset: fc.option(fc.nat({ max: 10_000 }), { nil: null }),
    filter: fc.record(
      {
        op_names: fc.array(text, { maxLength: 2 }),
        trace_ids: fc.option(fc.array(fc.uuid(), { maxLength: 2 }), { nil: null }),
        trace_roots_only: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    sort_by: fc.array(
      fc.record({
        field: fc.constantFrom("started_at", "id", "op_name", "summary.weave.latency_ms"),
        direction: fc.constantFrom("asc" as const, "desc" as const),
      }),
      { maxLength: 2 },
    ),
    query: fc.record({
      $expr: fc.record({
        $eq: fc.tuple(fc.record({ $getField: fc.constantFrom("op_name", "id") }), fc.record({ $literal: text })),
      }),
    }),
    include_costs: fc.boolean(),
    columns: fc.option(fc.array(fc.constantFrom("id", "op_name", "started_at"), { maxLength: 3 }), { nil: null }),
  },
  { requiredKeys: ["project_id"] },
);

const progress = fc.record({
  queueId: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s !== "." && s !== ".."),
  itemId: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s !== "." && s !== ".."),
  params: fc.record({
    annotation_state: fc.constantFrom("in_progress" as const, "completed" as const, "skipped" as const),
    project_id: projectId,
  }),
});

const trajectoryChoice = fc.record({
  finish_reason: fc.constantFrom("stop", "length"),
  index: fc.nat({ max: 3 }),
  logprobs: fc.option(
    fc.record({
      content: fc.array(
        fc.record({ token: text, logprob: fc.double({ max: 0, noNaN: true, noDefaultInfinity: true }) }),
        { maxLength: 2 },
      ),
    }),
    { nil: null },
  ),
  message: fc.record({ role: fc.constant("assistant" as const), content: text }),
});
const trajectoryEntry = fc.oneof(
  fc.record({ role: fc.constantFrom("system", "user", "tool"), content: text }),
  trajectoryChoice,
);

const trajectory = fc.record(
  {
    // At least one choice, with logprobs: a trajectory without a choice has nothing to train on
    // and is refused, and so is a job none of whose choices carries logprobs.
    messages_and_choices: fc
      .tuple(fc.array(trajectoryEntry, { maxLength: 2 }), trajectoryChoice)
      .map(([entries, choice]) => [...entries, { ...choice, logprobs: choice.logprobs ?? { content: [] } }]),
    reward: finite,
    metrics: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(finite, fc.boolean()), { maxKeys: 2 }),
    metadata: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.oneof(text, finite, fc.boolean(), fc.constant(null)),
      { maxKeys: 2 },
    ),
    logs: fc.array(text, { maxLength: 2 }),
  },
  { requiredKeys: ["messages_and_choices"] },
);

const trainingJob = fc.record(
  {
    model_id: fc.uuid(),
    trajectory_groups: fc.array(fc.record({ trajectories: fc.array(trajectory, { maxLength: 3 }) }), { maxLength: 3 }),
    experimental_config: fc.option(
      fc.record(
        {
          learning_rate: fc.option(fc.double({ min: 1e-8, max: 1e-2, noNaN: true }), { nil: null }),
          epsilon: fc.option(finite, { nil: null }),
          ppo: fc.option(fc.boolean(), { nil: null }),
          scale_rewards: fc.boolean(),
          variant_k2_tau: fc.option(finite, { nil: null }),
        },
        { requiredKeys: [] },
      ),
      { nil: null },
    ),
  },
  { requiredKeys: ["model_id", "trajectory_groups"] },
);

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

type Op = "chat" | "calls" | "progress" | "jobs";

/** Sends one request and waits for it to end, whatever the service answers. */
async function send(op: Op, input: any): Promise<{ error?: unknown }> {
  const work = async () => {
    switch (op) {
      case "chat": {
        const r = await fake.client.chat.completions.create(input);
        if (input.stream === true) (r as unknown as { abort(): void }).abort();
        return;
      }
      case "calls": {
        const it = fake.client.calls.query(input.params ?? input, input.options ?? {})[Symbol.asyncIterator]();
        await it.next();
        await it.return?.(undefined);
        return;
      }
      case "progress":
        await fake.client.annotationQueues.items.progress(input.queueId, input.itemId, input.params);
        return;
      case "jobs":
        await fake.client.trainingJobs.create(input);
        return;
    }
  };
  const outcome = await within(10_000, settle(work()), op);
  return "error" in outcome ? { error: outcome.error } : {};
}

const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("valid requests are accepted and arrive as given", () => {
  it("chat completions", async () => {
    await fc.assert(
      fc.asyncProperty(chatRequest, async (req) => {
        const before = fake.svc.requests.length;
        const { error } = await send("chat", req);
        expect(error).not.toBeInstanceOf(RequestValidationError);
        expect(fake.svc.requests.length).toBe(before + 1);
        expect(fake.svc.requests.at(-1)!.json).toEqual(asJson(req));
      }),
      { numRuns: RUNS },
    );
  });

  it("call queries", async () => {
    await fc.assert(
      fc.asyncProperty(callsQuery, async (params) => {
        const before = fake.svc.requests.length;
        const { error } = await send("calls", { params, options: { pageSize: 1000 } });
        expect(error).not.toBeInstanceOf(RequestValidationError);
        expect(fake.svc.requests.length).toBe(before + 1);
        // The page window replaces limit/offset: the first page asks for min(limit, pageSize).
        const limit = params.limit == null ? 1000 : Math.min(params.limit, 1000);
        expect(fake.svc.requests.at(-1)!.json).toEqual(asJson({ ...params, limit, offset: params.offset ?? 0 }));
      }),
      { numRuns: RUNS },
    );
  });

  it("annotation progress", async () => {
    await fc.assert(
      fc.asyncProperty(progress, async (input) => {
        const before = fake.svc.requests.length;
        const { error } = await send("progress", input);
        expect(error).not.toBeInstanceOf(RequestValidationError);
        expect(fake.svc.requests.length).toBe(before + 1);
        const last = fake.svc.requests.at(-1)!;
        expect(last.path).toBe(
          `/annotation_queues/${encodeURIComponent(input.queueId)}/items/${encodeURIComponent(input.itemId)}/progress`,
        );
        expect(last.json).toEqual(input.params);
      }),
      { numRuns: RUNS },
    );
  });

  it("training jobs", async () => {
    await fc.assert(
      fc.asyncProperty(trainingJob, async (job) => {
        const before = fake.svc.requests.length;
        const { error } = await send("jobs", job);
        expect(error).not.toBeInstanceOf(RequestValidationError);
        expect(fake.svc.requests.length).toBe(before + 1);
        expect(fake.svc.requests.at(-1)!.json).toEqual(asJson(job));
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Mutations that break exactly one rule
// ---------------------------------------------------------------------------------------------

type Mutation<T> = [name: string, (valid: T) => unknown];

const chatMutations: Mutation<Record<string, any>>[] = [
  ["seed above int64", (r) => ({ ...r, seed: INT64_MAX * 2 })],
  ["seed not an integer", (r) => ({ ...r, seed: 1.5 })],
  ["tool_choice outside vLLM's forms", (r) => ({ ...r, tool_choice: "any" })],
  ["role not a string", (r) => ({ ...r, messages: [{ role: 7, content: "hi" }, ...r.messages] })],
  ["top_logprobs without logprobs", (r) => ({ ...r, logprobs: false, top_logprobs: 3 })],
  ["empty cache_salt", (r) => ({ ...r, cache_salt: "" })],
  ["no messages", (r) => ({ ...r, messages: [] })],
  ["n = 0", (r) => ({ ...r, n: 0 })],
  ["NaN temperature", (r) => ({ ...r, temperature: Number.NaN })],
  ["top_logprobs below -1", (r) => ({ ...r, top_logprobs: -2 })],
  ["truncate_prompt_tokens below -1", (r) => ({ ...r, truncate_prompt_tokens: -2 })],
  [
    "continue_final_message with add_generation_prompt",
    (r) => ({ ...r, continue_final_message: true, add_generation_prompt: true }),
  ],
  ["stream_options without stream", (r) => ({ ...r, stream: false, stream_options: { include_usage: true } })],
  ["misspelt field", (r) => ({ ...r, max_completion_token: 5 })],
  ["unknown reasoning_effort", (r) => ({ ...r, reasoning_effort: "extreme" })],
  ["tool message with null content", (r) => ({ ...r, messages: [...r.messages, { role: "tool", content: null }] })],
  ["temperature above 2", (r) => ({ ...r, temperature: 2.5 })],
];

const callsMutations: Mutation<Record<string, any>>[] = [
  ["negative limit", (p) => ({ params: { ...p, limit: -1 } })],
  ["fractional limit", (p) => ({ params: { ...p, limit: 2.5 } })],
  ["negative offset", (p) => ({ params: { ...p, offset: -3 } })],
  ["empty project_id", (p) => ({ params: { ...p, project_id: "" } })],
  ["unknown filter key", (p) => ({ params: { ...p, filter: { ...p.filter, user_ids: ["u"] } } })],
  ["bad sort direction", (p) => ({ params: { ...p, sort_by: [{ field: "id", direction: "up" }] } })],
  ["unknown top-level key", (p) => ({ params: { ...p, limt: 5 } })],
  ["malformed query expression", (p) => ({ params: { ...p, query: { $expr: { $eq: [{ $getField: "id" }] } } } })],
  ["pageSize 0", (p) => ({ params: p, options: { pageSize: 0 } })],
];

const progressMutations: Mutation<{ queueId: string; itemId: string; params: Record<string, any> }>[] = [
  ['annotation_state "unstarted"', (i) => ({ ...i, params: { ...i.params, annotation_state: "unstarted" } })],
  ['annotation_state "done"', (i) => ({ ...i, params: { ...i.params, annotation_state: "done" } })],
  ["project_id without slash", (i) => ({ ...i, params: { ...i.params, project_id: "acme" } })],
  ["project_id with two slashes", (i) => ({ ...i, params: { ...i.params, project_id: `${i.params.project_id}/x` } })],
  ["project_id with a space", (i) => ({ ...i, params: { ...i.params, project_id: "acme/support bot" } })],
  ["extra field", (i) => ({ ...i, params: { ...i.params, annotator: "me" } })],
  ["empty queue id", (i) => ({ ...i, queueId: "" })],
  ['item id ".."', (i) => ({ ...i, itemId: ".." })],
];

const jobMutations: Mutation<Record<string, any>>[] = [
  ["non-UUID model_id", (j) => ({ ...j, model_id: `${j.model_id}x` })],
  ["model name for model_id", (j) => ({ ...j, model_id: "Qwen/Qwen3-8B" })],
  [
    "a trajectory without an assistant choice",
    (j) => ({
      ...j,
      trajectory_groups: [
        ...j.trajectory_groups,
        { trajectories: [{ messages_and_choices: [{ role: "user", content: "hi" }] }] },
      ],
    }),
  ],
  [
    "NaN reward",
    (j) => ({
      ...j,
      trajectory_groups: [{ trajectories: [{ messages_and_choices: [], reward: Number.NaN }] }, ...j.trajectory_groups],
    }),
  ],
  [
    "infinite reward",
    (j) => ({
      ...j,
      trajectory_groups: [...j.trajectory_groups, { trajectories: [{ messages_and_choices: [], reward: Infinity }] }],
    }),
  ],
  [
    "misspelt reward",
    (j) => ({ ...j, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], rewrd: 1 }] }] }),
  ],
  ["no trajectory_groups", ({ trajectory_groups: _, ...rest }) => rest],
  [
    "unknown experimental_config key",
    (j) => ({ ...j, experimental_config: { ...(j.experimental_config ?? {}), learning_rat: 1e-5 } }),
  ],
  [
    "choice with a user message",
    (j) => ({
      ...j,
      trajectory_groups: [
        {
          trajectories: [
            { messages_and_choices: [{ finish_reason: "stop", index: 0, message: { role: "user", content: 1 } }] },
          ],
        },
      ],
    }),
  ],
];

function refusedProperty<T>(op: Op, valid: fc.Arbitrary<T>, mutations: Mutation<T>[]) {
  return fc.asyncProperty(valid, fc.constantFrom(...mutations), async (v, [, mutate]) => {
    const before = fake.svc.requests.length;
    const { error } = await send(op, mutate(v));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.length).toBeGreaterThan(0);
    expect(fake.svc.requests.length).toBe(before);
  });
}

describe("requests that break one rule are refused, and nothing is sent", () => {
  it("chat completions", () => fc.assert(refusedProperty("chat", chatRequest, chatMutations), { numRuns: RUNS }));
  it("call queries", () => fc.assert(refusedProperty("calls", callsQuery, callsMutations), { numRuns: RUNS }));
  it("annotation progress", () =>
    fc.assert(refusedProperty("progress", progress, progressMutations), { numRuns: RUNS }));
  it("training jobs", () => fc.assert(refusedProperty("jobs", trainingJob, jobMutations), { numRuns: RUNS }));

  it("every mutation is tried at least once", async () => {
    // fc.constantFrom may skip one in 100 runs: run each mutation once on a fixed sample too.
    const sample = <T>(a: fc.Arbitrary<T>) => fc.sample(a, { numRuns: 1, seed: 42 })[0]!;
    const all: Array<[Op, unknown, Mutation<any>[]]> = [
      ["chat", sample(chatRequest), chatMutations],
      ["calls", sample(callsQuery), callsMutations],
      ["progress", sample(progress), progressMutations],
      ["jobs", sample(trainingJob), jobMutations],
    ];
    for (const [op, valid, mutations] of all) {
      for (const [name, mutate] of mutations) {
        const before = fake.svc.requests.length;
        const { error } = await send(op, mutate(valid));
        expect(error, `${op}: ${name}`).toBeInstanceOf(RequestValidationError);
        expect(fake.svc.requests.length, `${op}: ${name} sent something`).toBe(before);
      }
    }
  });
});
