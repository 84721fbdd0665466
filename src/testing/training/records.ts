/**
 * The training service's records as the fake keeps them: trainable models (with their
 * checkpoints and what they learned) and the events of jobs.
 */

/**
 * A trainable model kept by the fake (`svc.state.trainable.models`).
 */
export interface FakeTrainableModel {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id: string;
  checkpoints: Array<{ id: string; step: number; metrics: Record<string, number> }>;
  /** Per prompt, the best reply seen in training so far and its reward. */
  policy: Map<string, { reply: string; reward: number }>;
  /** Per prompt, tool name and ordinal of the call, the best-rewarded arguments that beat their group. */
  toolPolicy: Map<string, { arguments: Record<string, unknown>; reward: number }>;
  /** Per conversation an SFT job trained on (`sft-policy.ts`), its reply and the step that learned it. */
  sftReplies: Map<string, { reply: string; step: number }>;
}

/**
 * One event of a fake job.
 */
export interface FakeTrainingEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}
