/**
 * Chat on a trained name, as W&B Inference serves a trainable model's checkpoints:
 * `wandb-artifact:///{entity}/{project}/{name}[:step{N}]` (the latest step when none is given).
 * A trained step answers with what the model learned (`policy.ts`) for a share of its samples
 * that grows with the step (1/2 after one step, 3/4 after two, ...; a sample that leans once
 * leans at every later step), and as the base model does otherwise. A conversation an SFT job
 * trained on is answered with its trained reply, every time (`sft-policy.ts`).
 */
import type { ChatParams } from "../chat/checks.js";
import type { GeneratedChoice } from "../chat/generate.js";
import { generateChoice } from "../chat/generate.js";
import { tokenId, tokenize } from "../chat/tokens.js";
import { openAiError } from "../responses.js";
import type { FakeModelEntry, FakeRequest, ResponsePlan } from "../types.js";
import { hash32, isRecord, seededRandom } from "../util.js";
import { textOf, toolKey } from "./policy.js";
import { conversationKey } from "./sft-policy.js";
import type { TrainableStore } from "./store.js";

// `:latest` is the newest step, as W&B's LoRA guide names a trained adapter on W&B Inference.
const ARTIFACT = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+)(?::step(\d+)|:latest)?$/;

/** The last user message of a chat request, as the policy keys prompts. */
function lastUserText(params: ChatParams): string {
  for (let i = params.messages.length - 1; i >= 0; i--) {
    const m = params.messages[i]!;
    if (m.role === "user") return textOf((m as { content?: unknown }).content);
  }
  return "";
}

/**
 * Chat on a `wandb-artifact:///` name: undefined for other names, a 404 in vLLM's envelope for
 * an unknown model or step, else the served entry and the policy of the step. Called by the
 * service's chat route.
 */
export function resolveTrainedChat(
  store: TrainableStore,
  req: FakeRequest,
):
  | undefined
  | { error: ResponsePlan }
  | { entry: FakeModelEntry; policy: (params: ChatParams, index: number) => GeneratedChoice | undefined } {
  const name = isRecord(req.json) ? req.json["model"] : undefined;
  if (typeof name !== "string" || !name.startsWith("wandb-artifact:")) return undefined;
  store.advance();
  const m = ARTIFACT.exec(name);
  const model = m && store.models.find((x) => x.entity === m[1] && x.project === m[2] && x.name === m[3]);
  const step = m?.[4] === undefined ? (model?.checkpoints.at(-1)?.step ?? 0) : Number(m[4]);
  if (!model || (m?.[4] !== undefined && !model.checkpoints.some((c) => c.step === step)))
    return { error: openAiError(404, "NotFoundError", `The model \`${name}\` does not exist.`, "model") };
  const entry: FakeModelEntry = { id: name, object: "model", created: 0, owned_by: "wandb", root: model.base_model };
  const share = 1 - 0.5 ** step;
  return {
    entry,
    policy: (params, index) => {
      if (step === 0) return undefined;
      // What an SFT job taught is said every time, to the conversation it was taught on.
      const taught = model.sftReplies.get(conversationKey(params.messages));
      if (taught !== undefined && taught.step <= step) return learnedChoice(taught.reply, params, index);
      const prompt = lastUserText(params);
      // The same draw at every step for a given sample: a sample that leaned at step N leans at
      // every later step, so the mean reward of a fixed set of rollouts never falls. Keyed by
      // the model's name, not its random id, so a run repeats exactly.
      const leans = (what: string) =>
        seededRandom(
          hash32(
            `${model.entity}/${model.project}/${model.name}\u0000${prompt}\u0000${index}\u0000${params.seed ?? ""}${what}`,
          ),
        )() < share;
      const learned = model.policy.get(prompt);
      if (learned !== undefined && leans("")) return learnedChoice(learned.reply, params, index);
      if (model.toolPolicy.size === 0) return undefined;
      return generateChoice(params, index, (tool, ordinal) => {
        const known = model.toolPolicy.get(toolKey(prompt, tool, ordinal));
        return known !== undefined && leans(`\u0000${tool}\u0000${ordinal}`)
          ? structuredClone(known.arguments)
          : undefined;
      });
    },
  };
}

/** A choice that replies with `text`, within the request's token budget. */
function learnedChoice(text: string, params: ChatParams, index: number): GeneratedChoice {
  let tokens = tokenize(text).map((piece) => ({
    text: piece,
    id: tokenId(piece),
    channel: "content" as const,
    logprob: -0.05,
  }));
  const budget = params.max_completion_tokens ?? params.max_tokens ?? Infinity;
  const cut = tokens.length > budget;
  if (cut) tokens = tokens.slice(0, budget);
  return { index, tokens, toolCall: undefined, finishReason: cut ? "length" : "stop", stopReason: null };
}
