/**
 * The RL loop in one program: for a few prompts, gather groups of 4 rollouts (repeated chat
 * calls with different seeds), score each reply with a small reward function, create a
 * training job from the groups, then query the traced calls and mark their annotation items
 * completed.
 *
 *   npx tsx examples/rl-loop.ts [--training-model=UUID --project=entity/project --queue=ID --item=ID]
 */
import { runRlLoop } from "./_rl-loop.js";
import { runExample } from "./_service.js";

await runExample(async (service) => {
  console.log(`running against ${service.description}`);
  await runRlLoop(service, (line) => console.log(line));
});
