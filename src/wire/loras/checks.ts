/**
 * What `client.loras.deploy` checks before anything is sent: its parameters, then the adapter
 * folder's `adapter_config.json` against the base models W&B Inference serves adapters for and
 * their largest rank. An adapter W&B would store but never serve is refused here, with the fix.
 */
import { closestNames } from "../../core/checks/closest-name.js";
import { isObject } from "../../core/decoding/response-checks.js";
import { RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import { LORA_BASE_MODELS } from "./base-models.js";
import type { LoraCheckpoint, LoraDeployParams } from "./types.js";

const WHAT = "loras.deploy request";
// wandb `sdk/artifacts/artifact.py` (Artifact.__init__): the characters W&B's Python client
// takes in an artifact name; the name is also a segment of the model name.
const ARTIFACT_NAME = /^[A-Za-z0-9_.-]+$/;
const PROJECT = /^[^/\s]+\/[^/\s]+$/;
// vLLM loads an adapter's weights from either file (vllm `lora/models.py`, from_local_checkpoint).
const WEIGHTS = ["adapter_model.safetensors", "adapter_model.bin"];

type Add = (path: string, message: string) => void;

function collector(): { issues: ValidationIssue[]; add: Add } {
  const issues: ValidationIssue[] = [];
  return { issues, add: (path, message) => issues.push({ path, message, code: "custom" }) };
}

/** The parameters checked: what a folder deploy or a checkpoint deploy goes on with. */
export type CheckedDeploy =
  | { kind: "dir"; dir: string; entity: string; project: string; name: string }
  | { kind: "checkpoint"; checkpoint: LoraCheckpoint; baseModel: string };

/** Refuses parameters that cannot make a deploy, naming each field and the fix. */
export function checkDeployParams(params: LoraDeployParams): CheckedDeploy {
  const { issues, add } = collector();
  const p = (isObject(params) ? params : {}) as Partial<LoraDeployParams>;
  const table = p.baseModels ?? LORA_BASE_MODELS;
  if (!isObject(table) || Object.values(table).some((r) => !Number.isInteger(r) || (r as number) < 1))
    add("baseModels", "baseModels must map each base model id to its largest LoRA rank (an integer >= 1)");
  if (p.checkpoint !== undefined) {
    const extra = (["dir", "project", "name", "aliases", "region", "description", "metadata"] as const).filter(
      (k) => p[k] !== undefined,
    );
    if (extra.length > 0)
      add(
        extra[0]!,
        `a checkpoint is deployed as the \`lora\` artifact W&B Training already stored: leave out ${extra.join(", ")}`,
      );
    const model: Record<string, unknown> =
      isObject(p.checkpoint) && isObject(p.checkpoint.model) ? p.checkpoint.model : {};
    for (const key of ["entity", "project", "name", "base_model"] as const)
      if (typeof model[key] !== "string" || model[key] === "")
        add(`checkpoint.model.${key}`, "must be a non-empty string: pass the model `trainableModels.register` gave");
    const step = isObject(p.checkpoint) ? p.checkpoint.step : undefined;
    if (!Number.isSafeInteger(step) || (step as number) < 0)
      add("checkpoint.step", "must be a trained step (an integer >= 0), e.g. `await model.latestStep()`");
    const baseModel = p.baseModel ?? (model.base_model as string | undefined);
    if (issues.length === 0 && baseModel !== undefined)
      checkBaseModel(baseModel, p.baseModel !== undefined ? "baseModel" : "checkpoint.model.base_model", table, add);
    if (issues.length > 0) throw new RequestValidationError(issues, WHAT);
    return { kind: "checkpoint", checkpoint: p.checkpoint, baseModel: baseModel as string };
  }
  if (typeof p.dir !== "string" || p.dir === "")
    add("dir", "give the adapter's folder (the one PEFT's save_pretrained wrote), or a trainable model's `checkpoint`");
  if (typeof p.project !== "string" || !PROJECT.test(p.project))
    add("project", 'must be "<entity>/<project>", the W&B project to store the adapter in');
  if (typeof p.name !== "string" || !ARTIFACT_NAME.test(p.name) || p.name.length > 128)
    add("name", "must be an artifact name of letters, digits, `-`, `_` and `.` (at most 128 characters)");
  if (p.baseModel !== undefined && (typeof p.baseModel !== "string" || p.baseModel === ""))
    add("baseModel", 'must be the base model\'s id as W&B names it, e.g. "OpenPipe/Qwen3-14B-Instruct"');
  if (issues.length > 0) throw new RequestValidationError(issues, WHAT);
  const [entity, project] = (p.project as string).split("/") as [string, string];
  return { kind: "dir", dir: p.dir as string, entity, project, name: p.name as string };
}

function checkBaseModel(baseModel: string, path: string, table: Readonly<Record<string, number>>, add: Add): void {
  if (Object.hasOwn(table, baseModel)) return;
  const near = closestNames(baseModel, Object.keys(table));
  add(
    path,
    `W&B Inference serves LoRA adapters of ${Object.keys(table).join(", ")}, not "${baseModel}"` +
      (near.length > 0 ? ` (did you mean "${near[0]}"?)` : "") +
      ": train the adapter on one of them, or pass `baseModels` with this one if W&B serves it since",
  );
}

/**
 * Checks the folder's files and `adapter_config.json` (its text, or undefined when the folder
 * has none) and returns the base model to store with the adapter.
 */
export function checkAdapter(
  params: LoraDeployParams,
  dir: string,
  names: readonly string[],
  configText: string | undefined,
): string {
  const { issues, add } = collector();
  const table = params.baseModels ?? LORA_BASE_MODELS;
  const fix = "give the folder PEFT's save_pretrained wrote";
  if (configText === undefined) add("dir", `${dir} has no adapter_config.json: ${fix}`);
  if (!WEIGHTS.some((w) => names.includes(w)))
    add("dir", `${dir} has no adapter_model.safetensors (or adapter_model.bin): ${fix}`);
  let config: Record<string, unknown> = {};
  if (configText !== undefined) {
    try {
      const parsed: unknown = JSON.parse(configText);
      if (!isObject(parsed)) throw new Error("not an object");
      config = parsed;
    } catch {
      add("adapter_config.json", "is not a JSON object: write it with PEFT's save_pretrained");
    }
  }
  const at = (key: string) => `adapter_config.json.${key}`;
  if (config.peft_type !== undefined && config.peft_type !== "LORA")
    add(at("peft_type"), `is ${JSON.stringify(config.peft_type)}: W&B Inference serves LoRA adapters only`);
  // vllm `lora/peft_helper.py` (PEFTHelper._validate_features) refuses both at load time.
  if (config.use_dora === true) add(at("use_dora"), "vLLM, behind W&B Inference, does not serve DoRA adapters");
  if (Array.isArray(config.modules_to_save) && config.modules_to_save.length > 0)
    add(at("modules_to_save"), "vLLM, behind W&B Inference, serves adapters without modules_to_save only");

  const given = params.baseModel;
  const named = typeof config.base_model_name_or_path === "string" ? config.base_model_name_or_path : undefined;
  const baseModel = given ?? named;
  if (baseModel === undefined) {
    if (configText !== undefined)
      add("baseModel", "adapter_config.json names no base_model_name_or_path: pass `baseModel`");
  } else checkBaseModel(baseModel, given !== undefined ? "baseModel" : at("base_model_name_or_path"), table, add);

  if (configText !== undefined && issues.every((i) => i.path !== "adapter_config.json")) {
    const r = config.r;
    if (!Number.isInteger(r) || (r as number) < 1) add(at("r"), "must be the adapter's LoRA rank (an integer >= 1)");
    const limit = baseModel !== undefined ? table[baseModel] : undefined;
    if (limit !== undefined && Number.isInteger(r)) {
      // PEFT's rank_pattern gives some modules a rank of their own: the largest one must fit too.
      const pattern = isObject(config.rank_pattern) ? Object.values(config.rank_pattern) : [];
      const rank = Math.max(r as number, ...pattern.filter((v): v is number => typeof v === "number"));
      if (rank > limit)
        add(
          rank === r ? at("r") : at("rank_pattern"),
          `is ${rank}, above the largest LoRA rank W&B Inference serves for ${baseModel} (${limit}): train with r <= ${limit} (PEFT's LoraConfig(r=...))`,
        );
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues, WHAT);
  return baseModel as string;
}
