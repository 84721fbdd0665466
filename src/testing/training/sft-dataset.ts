/**
 * SFT jobs' training data, as W&B Training reads it: `training_data_url` must name a committed
 * artifact (`wandb-artifact:///{entity}/{project}/{name}:{alias}`) holding `train.jsonl`; the
 * create answers 400 once that artifact is gone (a user's report; W&B's docs say nothing). The
 * SFT create route (`routes.ts`) asks {@link readSftDataset} before it makes a job, and trains
 * one step per batch of what was uploaded ({@link sftBatchMetrics}).
 *
 * W&B Training's server is not public, so what it refuses in the file's content is taken from
 * the reader ART trains with (OpenPipe/ART `src/art/utils/sft.py` @458eb16b, `iterate_file` and
 * `_parse_jsonl_line`): blank lines are skipped; every other line is `json.loads`ed (a line
 * that is not JSON raises) into a `Trajectory(messages_and_choices=data.get("messages", []),
 * tools=data.get("tools"))`, a pydantic model (a line that is not an object, messages that are
 * not chat messages with a `role`, or `tools` that are not a list fail it). An empty dataset
 * trains nothing: ART never sends one (its serverless backend returns before the job, ART-b3),
 * and the fake refuses it. These refusals are 400s at the create, like the missing artifact's;
 * whether W&B answers them at the create or as `training_failed` is not known.
 */
import type { ArtifactStore, FakeArtifact } from "../artifacts/store.js";
import { tokenize } from "../chat/tokens.js";
import { hash32, isRecord } from "../util.js";

const URL_FORM = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+):([^/:]+)$/;

/** One row of `train.jsonl` as the trainer reads it. */
export interface SftDatasetRow {
  messages: Array<Record<string, unknown> & { role: string }>;
  tools: unknown[] | null;
}

/** What is wrong with one parsed line, or undefined. */
function lineProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return "a row must be a JSON object { messages, tools? }";
  const messages = data["messages"] ?? [];
  if (!Array.isArray(messages)) return "messages must be a list of chat messages";
  const bad = messages.findIndex((m) => !isRecord(m) || typeof m["role"] !== "string");
  if (bad >= 0) return `messages.${bad} must be a chat message with a string role`;
  const tools = data["tools"];
  if (tools != null && !Array.isArray(tools)) return "tools must be a list of tool definitions or null";
  return undefined;
}

/**
 * The rows of `train.jsonl`, or what is wrong with it (naming the line).
 */
export function parseSftJsonl(text: string): { problem: string } | { rows: SftDatasetRow[] } {
  const rows: SftDatasetRow[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (err) {
      return { problem: `train.jsonl line ${i + 1} is not JSON: ${(err as Error).message}` };
    }
    const problem = lineProblem(data);
    if (problem !== undefined) return { problem: `train.jsonl line ${i + 1}: ${problem}` };
    const row = data as Record<string, unknown>;
    rows.push({
      messages: (row["messages"] ?? []) as SftDatasetRow["messages"],
      tools: (row["tools"] ?? null) as unknown[] | null,
    });
  }
  if (rows.length === 0) return { problem: "train.jsonl has no rows: there is nothing to train on" };
  return { rows };
}

/**
 * What is wrong with a `training_data_url` or its `train.jsonl`, or the dataset's rows when it
 * is usable.
 */
export function readSftDataset(
  store: ArtifactStore,
  url: string,
): { problem: string } | { artifact: FakeArtifact; rows: SftDatasetRow[] } {
  const m = URL_FORM.exec(url);
  if (!m) return { problem: "training_data_url must be wandb-artifact:///{entity}/{project}/{name}:{version}" };
  const [, entity, project, name, alias] = m as unknown as [string, string, string, string, string];
  const artifact = store.resolve(entity, project, name, alias);
  if (artifact === undefined)
    return { problem: `Training data artifact not found: ${entity}/${project}/${name}:${alias}` };
  const file = artifact.files.get("train.jsonl");
  const object = file && store.object(file.key);
  if (object === undefined) return { problem: `The artifact ${name}:${alias} has no train.jsonl` };
  const parsed = parseSftJsonl(new TextDecoder().decode(object.bytes));
  return "problem" in parsed ? parsed : { artifact, rows: parsed.rows };
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p) => (isRecord(p) && typeof p["text"] === "string" ? p["text"] : "")).join("")
      : "";

/**
 * The `gradient_step` data of each batch of an SFT job, derived from its rows: ART's trainer
 * makes `ceil(rows / batch_size)` batches (`create_sft_dataset_iterator`), with a batch size of 2
 * unless `config.batch_size` is a number (`resolve_sft_batch_size(default_batch_size=2)`; what
 * W&B's server picks for `"auto"` is not known). The members are those an SFT job's events carry
 * (`loss`, `num_tokens`, `num_trainable_tokens`, `learning_rate`, the ones SFT scripts read):
 * the tokens are counted in the batch's messages (the trainable ones in its assistant turns, or
 * only the last with `assistant_turns: "last"`), and the loss falls with the batch and with the
 * model's step, and moves with the batch's content.
 */
export function sftBatchMetrics(
  rows: readonly SftDatasetRow[],
  config: Record<string, unknown>,
  modelStep: number,
): Array<Record<string, number>> {
  const batchSize =
    typeof config["batch_size"] === "number" && config["batch_size"] >= 1 ? Math.floor(config["batch_size"]) : 2;
  const lr = config["learning_rate"];
  const lastOnly = config["assistant_turns"] === "last";
  const out: Array<Record<string, number>> = [];
  for (let start = 0, k = 1; start < rows.length; start += batchSize, k++) {
    const batch = rows.slice(start, start + batchSize);
    let tokens = 0;
    let trainable = 0;
    for (const row of batch) {
      const assistant = row.messages.filter((m) => m.role === "assistant");
      const trained = lastOnly ? assistant.slice(-1) : assistant;
      for (const m of row.messages) {
        const n = tokenize(textOf(m["content"])).length + 4;
        tokens += n;
        if (trained.includes(m)) trainable += n;
      }
    }
    const noise = (hash32(JSON.stringify(batch)) % 100) / 20000;
    const loss = (1.6 / (1 + 0.15 * k) / (1 + 0.2 * (modelStep - 1)) + noise) * (trainable === 0 ? 0 : 1);
    const rate = Array.isArray(lr) ? lr[k - 1] : lr;
    out.push({
      step: k,
      loss: Math.round(loss * 10000) / 10000,
      num_tokens: tokens,
      num_trainable_tokens: trainable,
      learning_rate: typeof rate === "number" ? rate : 2e-4,
    });
  }
  return out;
}
