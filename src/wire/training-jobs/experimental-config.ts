// `experimental_config` of a training job: every member of W&B Training's current
// `ExperimentalTrainingConfig` (its OpenAPI, "Serverless Training" v1.0.0, and ART's
// `src/art/serverless/client.py`, which sends them), typed, with ART's meaning of each.
import * as z from "zod/mini";
import { memberFieldHint } from "../../core/checks/field-hint.js";
import type { Finding } from "../../core/errors/findings.js";
import type { Fields, SchemaOf } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";

ensureZodDefaults();

const tuning = z.nullish(z.number());
const count = z.nullish(z.int());
const switchable = z.nullish(z.boolean());
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.nullish(z.enum(values, { error: `must be one of ${values.map((v) => `"${v}"`).join(", ")}` }));

const experimentalConfig = z.strictObject({
  /**
   * Tilts advantages, -1 to 1: above 0 shrinks negative advantages by `1 - b`, below 0 shrinks
   * positive ones by `1 + b`; they are then renormalized. Default 0.
   */
  advantage_balance: tuning,
  /**
   * Train choices that carry no logprobs (and, on older trainers, plain assistant messages):
   * without it the trainer gives them no trainable token. Default false.
   */
  allow_training_without_logprobs: switchable,
  /** Lower clip bound of the importance ratio, `1 - epsilon`. Default 0.2 with PPO, else 1. */
  epsilon: tuning,
  /** Upper clip bound of the importance ratio, `1 + epsilon_high`. Default `epsilon` with PPO, else 4. */
  epsilon_high: tuning,
  /** Where the importance ratio is taken: per `token` (default), per `sequence`, or their averages. */
  importance_sampling_level: oneOf(["token", "sequence", "average", "geometric_average"]),
  /** Kimi-K2-style correction `A -= tau·(logπ_new - logπ_old)`, under ART's name. Default off. */
  kimi_k2_tau: tuning,
  /** Kimi-K2-style correction under the spec's name; W&B's schema knows `kimi_k2_tau` only. */
  variant_k2_tau: tuning,
  /** Weight of the KL penalty against the reference policy. Default 0 (off). */
  kl_penalty_coef: tuning,
  /** The checkpoint step whose weights are the KL reference. Not with `kl_penalty_step_lag`. */
  kl_penalty_reference_step: count,
  /** Which logprobs the KL penalty compares: `current_learner` or `sample`. */
  kl_penalty_source: oneOf(["current_learner", "sample"]),
  /** The KL reference is the checkpoint this many steps back (1 or more). Not with `kl_penalty_reference_step`. */
  kl_penalty_step_lag: count,
  /** Path of a LoRA adapter to use as the KL reference. */
  kl_ref_adapter_path: z.nullish(z.string()),
  /** Learning rate of the LoRA optimizer. Default 5e-6. */
  learning_rate: tuning,
  /** Tokens per chunk when the trainer computes logprobs (memory against speed). Default 1024. */
  logprob_calculation_chunk_size: count,
  /** The policy loss: `cispo` (default) or `ppo`. ART derives it from `ppo`; keep the two consistent. */
  loss_fn: oneOf(["cispo", "ppo"]),
  /** Zero the ratio outside the clip window. Default false. */
  mask_prob_ratio: switchable,
  /** Cap on the importance ratio (named for negative advantages). Default off. */
  max_negative_advantage_importance_sampling_weight: tuning,
  /** Normalize advantages within each group (ART copies `scale_rewards` here). */
  normalize_advantages: switchable,
  /** Scales the learning rate by (number of trajectories) to this power. Default 0 (off). */
  num_trajectories_learning_rate_multiplier_power: tuning,
  /** Length, in tokens, of the packed training sequences. */
  packed_sequence_length: count,
  /** Log plots of the training tensors. Default false. */
  plot_tensors: switchable,
  /** PPO's clipped objective; false uses CISPO/REINFORCE. Default false. */
  ppo: switchable,
  /** Recompute the old logprobs with the trainer instead of using the sampled ones. Default false. */
  precalculate_logprobs: switchable,
  /** Scale the learning rate by the rewards' standard deviation. Default false. */
  scale_learning_rate_by_reward_std_dev: switchable,
  /** Divide advantages by the group's reward standard deviation. Default true. */
  scale_rewards: switchable,
  /** Truncate importance weights at this value (truncated importance sampling). Default off. */
  truncated_importance_sampling: tuning,
});

/**
 * Loss and optimizer settings of a training job: every member of W&B Training's
 * `ExperimentalTrainingConfig`. Each member absent or null means the server's default; each is
 * sent under the name written (`variant_k2_tau` is the spec's name for ART's `kimi_k2_tau`).
 */
export interface ExperimentalConfig extends Fields<typeof experimentalConfig.shape> {}

/**
 * Loss and optimizer settings; each member null or absent means the server's default. Strict:
 * the server ignores a member it does not know, so a misspelt setting would silently train
 * with the default; it is refused with a "did you mean", and a setting newer than the SDK goes
 * in `extraBody: { experimental_config: { ... } }`, which is merged into this object. The
 * spec's `variant_k2_tau` is ART's `kimi_k2_tau`: both names are accepted and sent as written.
 */
export const experimentalConfigSchema: SchemaOf<ExperimentalConfig> = experimentalConfig;

/** Every member name of {@link experimentalConfigSchema}, for "did you mean" hints. */
export const EXPERIMENTAL_CONFIG_KEYS: readonly string[] = Object.keys(experimentalConfig.shape);

/** The "did you mean" and the `extraBody` way for an unknown `experimental_config` member. */
export const experimentalConfigKeyHint = memberFieldHint("experimental_config", EXPERIMENTAL_CONFIG_KEYS);

/**
 * A finding for `variant_k2_tau` (the spec's name, sent as written): W&B Training's schema and
 * ART know only `kimi_k2_tau`, and the server ignores a member it does not know, so the setting
 * has no effect there.
 */
export function ignoredSettings(config: unknown): Finding[] {
  if (typeof config !== "object" || config === null || (config as Record<string, unknown>)["variant_k2_tau"] == null)
    return [];
  return [
    {
      code: "ignored_setting",
      path: "experimental_config.variant_k2_tau",
      message:
        "variant_k2_tau is sent as written, but W&B Training and ART read kimi_k2_tau and ignore variant_k2_tau; write kimi_k2_tau for the setting to take effect",
    },
  ];
}
