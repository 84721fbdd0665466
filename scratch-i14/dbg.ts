import { safeParse } from "zod/v4/core";
import { trainingJobCreateParamsSchema } from "../src/index.js";
const c = {
  index: 0,
  finish_reason: "stop",
  message: { role: "assistant", content: "x" },
  logprobs: { content: [{ token: 1, logprob: -1 }] },
};
const r = safeParse(trainingJobCreateParamsSchema, {
  model_id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b",
  trajectory_groups: [{ trajectories: [{ messages_and_choices: [c] }] }],
});
console.log(JSON.stringify(r.error?.issues, null, 1));
