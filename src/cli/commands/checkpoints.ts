// `inferloop checkpoints list|prune|download <model-id>`: a trainable model's checkpoints, the
// model addressed by its id (W&B Training has no GET of a model by id, so a download, which
// needs the model's name, takes --project and --name too).
import type { Checkpoint } from "../../index.js";
import { argument, type Command, type CommandInput, intOption, requiredOption, stringOption } from "../command.js";
import { NothingFoundError, UsageError } from "../exit-codes.js";

const MODEL_ID = { name: "model-id", description: "the trainable model's id (trainableModels.register's model.id)" };

function metrics(c: Checkpoint): string {
  return Object.entries(c.metrics ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

export const checkpointsList: Command = {
  name: "checkpoints list",
  summary: "list a trained model's checkpoints with their metrics",
  description: "Lists every checkpoint of the model, oldest step first: its step, id and metrics.",
  arguments: [MODEL_ID],
  examples: ["inferloop checkpoints list 4f1c... --json | jq 'max_by(.metrics.reward).step'"],
  async run(input, { client, signal, stdout }) {
    const modelId = argument(input, "model-id");
    const all = await client().trainableModels.checkpoints.list(modelId, { limit: 100 }, { signal }).toArray();
    if (input.json) await stdout.json(all);
    else if (all.length === 0) await stdout.line("no checkpoints yet");
    else for (const c of all) await stdout.line(`step ${String(c.step).padStart(4)}  ${c.id}  ${metrics(c)}`);
    return 0;
  },
};

function mode(input: CommandInput): "max" | "min" | undefined {
  const value = stringOption(input, "mode");
  if (value === undefined || value === "max" || value === "min") return value;
  throw new UsageError(`--mode must be max or min, got ${JSON.stringify(value)}`);
}

export const checkpointsPrune: Command = {
  name: "checkpoints prune",
  summary: "delete checkpoints but the newest and the best",
  description: `Keeps the --keep-latest newest steps (default 1), the --keep-best best by --metric, and
always the latest, and deletes the rest in one request (checkpoints.prune). --dry-run deletes
nothing and says what would go.`,
  arguments: [MODEL_ID],
  options: {
    "keep-latest": { type: "string", value: "n", description: "the newest steps to keep (default 1)" },
    "keep-best": {
      type: "string",
      value: "n",
      description: "the best steps by --metric to keep (default 1 with --metric)",
    },
    metric: { type: "string", value: "name", description: 'the checkpoint metric that ranks steps, e.g. "reward"' },
    mode: { type: "string", value: "max|min", description: "max (default): higher is better; min: lower (a loss)" },
    "dry-run": { type: "boolean", description: "delete nothing; print what would be deleted" },
  },
  examples: [
    "inferloop checkpoints prune 4f1c... --keep-latest 2 --keep-best 1 --metric reward --dry-run",
    "inferloop checkpoints prune 4f1c... --metric loss --mode min",
  ],
  async run(input, { client, signal, stdout }) {
    const modelId = argument(input, "model-id");
    const keepLatest = intOption(input, "keep-latest");
    const keepBest = intOption(input, "keep-best");
    const metric = stringOption(input, "metric");
    const dryRun = input.options["dry-run"] === true;
    const m = mode(input);
    const result = await client().trainableModels.checkpoints.prune(
      modelId,
      {
        ...(keepLatest !== undefined ? { keepLatest } : {}),
        ...(keepBest !== undefined ? { keepBest } : {}),
        ...(metric !== undefined ? { metric } : {}),
        ...(m !== undefined ? { mode: m } : {}),
        dryRun,
      },
      { signal },
    );
    if (input.json) await stdout.json({ ...result, dryRun });
    else {
      const list = (steps: number[]) => (steps.length ? steps.join(", ") : "none");
      await stdout.line(`${dryRun ? "would delete" : "deleted"} steps: ${list(result.deleted)}`);
      await stdout.line(`kept steps: ${list(result.kept)}`);
    }
    return 0;
  },
};

export const checkpointsDownload: Command = {
  name: "checkpoints download",
  summary: "download a checkpoint's LoRA (the latest, or --step)",
  description: `Downloads the trained LoRA of a step (the lora artifact {entity}/{project}/{name}:step{N}
of W&B) into --dir, each file checked against its digest. The artifact is named by the model's
project and name, so those are needed beside its id (W&B Training has no lookup of a model by
id); the id finds the latest step when --step is not given.`,
  arguments: [MODEL_ID],
  options: {
    project: {
      type: "string",
      short: "p",
      value: "entity/project",
      description: "the model's entity and project (required)",
    },
    name: { type: "string", value: "name", description: "the model's name (required)" },
    step: { type: "string", value: "n", description: "the step (default: the latest)" },
    dir: {
      type: "string",
      short: "d",
      value: "dir",
      description: "where to write the files (default ./<name>-step<N>)",
    },
  },
  examples: ["inferloop checkpoints download 4f1c... --project acme/rl --name agent --step 3 --dir ./lora"],
  async run(input, { client, signal, stdout }) {
    const modelId = argument(input, "model-id");
    const project = requiredOption(input, "project", "acme/rl");
    const name = requiredOption(input, "name", "agent");
    if (!/^[^/\s]+\/[^/\s]+$/.test(project))
      throw new UsageError(`--project must be <entity>/<project>, e.g. acme/rl, got ${JSON.stringify(project)}`);
    let step = intOption(input, "step");
    if (step === undefined) {
      for await (const latest of client().trainableModels.checkpoints.list(
        modelId,
        { order: "desc", limit: 1 },
        { signal },
      )) {
        step = latest.step;
        break;
      }
      if (step === undefined)
        throw new NothingFoundError(`model ${modelId} has no checkpoint yet: nothing to download`);
    }
    const dir = stringOption(input, "dir") ?? `./${name}-step${step}`;
    const download = await client().artifacts.download(`${project}/${name}:step${step}`, { dir }, { signal });
    if (input.json) await stdout.json({ ...download, step });
    else await stdout.line(`downloaded step ${step} (${download.version}) into ${dir}: ${download.files.join(", ")}`);
    return 0;
  },
};
