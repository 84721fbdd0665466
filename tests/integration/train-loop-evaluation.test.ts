/**
 * `model.trainLoop({ evaluation })` against the fake: the starting checkpoint and every
 * `every`-th trained step evaluated in Weave with the checkpoint as the model, each step's
 * evaluation compared with the start; bad options refused before anything is sent.
 */
import { describe, expect, it } from "vitest";
import {
  gatherTrajectoryGroups,
  RequestValidationError,
  type TrainLoopRolloutContext,
  type TrainLoopStep,
  Trajectory,
} from "../../src/index.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false, trainingJobMs: 20 });
const PROMPTS = ["Say something short.", "Describe a token."];
const words = (text: unknown) =>
  String(text ?? "")
    .split(/\s+/)
    .filter(Boolean).length;

// Replies of few words score best: the fake's checkpoints learn the best-scored reply.
function rollouts({ modelName, signal, onProgress }: TrainLoopRolloutContext) {
  return gatherTrajectoryGroups(
    PROMPTS.map((prompt) =>
      [0, 1, 2, 3].map((seed) => async (inner: AbortSignal) => {
        const t = new Trajectory({ messages_and_choices: [{ role: "user", content: prompt }] });
        const reply = await t.sample(fake.client, { model: modelName, seed, temperature: 1 }, { signal: inner });
        t.reward = 1 / words(reply.choices[0]?.message.content);
        return t;
      }),
    ),
    { signal, onProgress },
  );
}

describe("trainLoop with evaluation", () => {
  it("evaluates the start and every 2nd step in Weave, each against the start", async () => {
    const model = await fake.client.trainableModels.register({
      project: "rl",
      name: "judged",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    const steps: TrainLoopStep[] = [];
    for await (const s of model.trainLoop({
      steps: 4,
      maxStepsOffPolicy: 0,
      rollouts,
      pollInterval: 5,
      evaluation: {
        dataset: PROMPTS.map((prompt) => ({ prompt })),
        scorers: { brevity: ({ output }) => 1 / words(output), short: ({ output }) => words(output) <= 8 },
        every: 2,
      },
    }))
      steps.push(s);

    expect(steps.map((s) => [s.step, s.evaluation?.step])).toEqual([
      [1, undefined],
      [2, 2],
      [3, undefined],
      [4, 4],
    ]);
    const [two, four] = [steps[1]!.evaluation!, steps[3]!.evaluation!];
    expect(two.modelName).toBe(model.inferenceName(2));
    expect(four.baseline.id).toBe(two.baseline.id);
    expect(two.baseline.step).toBe(0);
    for (const e of [two, four]) {
      expect(Object.keys(e.scorers).sort()).toEqual(["brevity", "short"]);
      const brevity = e.scorers["brevity"]!;
      expect(brevity.baseline).toBe((e.baseline.summary["brevity"] as { mean: number }).mean);
      expect(brevity.candidate).toBe((e.summary["brevity"] as { mean: number }).mean);
      expect(brevity.difference).toBeCloseTo(brevity.candidate! - brevity.baseline!, 12);
    }

    // Weave has the three evaluations of one Evaluation, each with its checkpoint as the model.
    const project = `${model.entity}/${model.project}`;
    const roots = await fake.client.calls
      .query({ project_id: project, filter: { op_names: [`weave:///${project}/op/Evaluation.evaluate:*`] } })
      .toArray();
    expect(roots.map((r) => r.id).sort()).toEqual([two.baseline.id, two.id, four.id].sort());
    expect(new Set(roots.map((r) => r.inputs["self"])).size).toBe(1);
    const models = roots.map((r) => {
      const [, id, digest] = /\/object\/([^:]+):(.+)$/.exec(r.inputs["model"] as string)!;
      return fake.svc.state.weave.read(project, id!, digest!)!.val as Record<string, unknown>;
    });
    expect(models.map((m) => [m["name"], m["step"]]).sort()).toEqual([
      [model.inferenceName(), 0],
      [model.inferenceName(2), 2],
      [model.inferenceName(4), 4],
    ]);
    expect(roots.map((r) => r.display_name).sort()).toEqual([
      "judged on judged-eval",
      "judged:step2 on judged-eval",
      "judged:step4 on judged-eval",
    ]);
  });

  it("refuses bad evaluation options before anything is sent", async () => {
    const model = await fake.client.trainableModels.register({
      project: "rl",
      name: "refused",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    fake.svc.state.requests.length = 0;
    const err = await caught(() =>
      model.trainLoop({
        steps: 2,
        maxStepsOffPolicy: 0,
        rollouts,
        evaluation: {
          dataset: [{ question: "no prompt" }],
          scorers: { ok: () => true },
          every: 0,
          atstart: false,
        } as never,
      }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    const message = (err as Error).message;
    expect(message).toContain("evaluation.every: must be an integer >= 1");
    expect(message).toContain('unknown option "atstart" (did you mean "atStart"?)');
    expect(message).toContain("evaluation.dataset.0: a chat model reads each row's `messages`");
    expect(fake.svc.requests).toEqual([]);
  });
});
