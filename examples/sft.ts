/**
 * Supervised fine-tuning, end to end: rows → a `dataset` artifact (train.jsonl) → an SFT job →
 * sample the new checkpoint → download its LoRA → prune the checkpoints that are not needed.
 *
 *   npx tsx sft.ts          (needs: npm install inferloop tsx)
 *
 * On W&B (WANDB_API_KEY set), name where to train: INFERLOOP_TRAINING_PROJECT (a project) and
 * INFERLOOP_BASE_MODEL (one of `client.trainableModels.baseModels()`).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Inferloop, type SFTRow } from "inferloop";
import { DEFAULT_BASE_MODELS, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, which trains in moments.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "sft-demo" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);

/** Rows as ART writes them: a conversation whose assistant turns are what is learned. */
async function* tutorRows(): AsyncGenerator<SFTRow> {
  const pairs: [number, number][] = [
    [2, 3],
    [7, 6],
    [12, 12],
  ];
  for (const [a, b] of pairs)
    yield {
      messages: [
        { role: "system", content: "Answer with the number only." },
        { role: "user", content: `What is ${a} * ${b}?` },
        { role: "assistant", content: String(a * b) },
      ],
    };
}

try {
  if (!project || !baseModel) {
    console.log("skipped: set INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL (see trainableModels.baseModels())");
  } else {
    const model = await client.trainableModels.register({ project, name: "tutor", base_model: baseModel });

    // 1-2. The rows become train.jsonl in a dataset artifact logged to the model's run; the job
    // trains on the version W&B assigned to it.
    for (let round = 1; round <= 2; round++) {
      const { jobId, step, metrics, trainingDataUrl, datasetExisted } = await model.trainSFT(tutorRows(), {
        config: { learning_rate: 5e-5 },
        pollInterval: fake ? 5 : 2_000,
      });
      // The dataset is named by its rows: the same rows again upload nothing.
      console.log(`dataset ${trainingDataUrl}${datasetExisted ? " (the same rows: already uploaded)" : ""}`);
      console.log(`SFT job ${jobId} → step ${step}, mean loss ${metrics.loss?.toFixed(4) ?? "n/a"}`);
    }

    // 3. Sample the new checkpoint: a trained checkpoint answers on the Training host, and the
    // model's own chat goes there (client.chat goes to Inference).
    const step = await model.latestStep();
    const reply = await model.chat.completions.create({
      model: model.inferenceName(step),
      messages: [{ role: "user", content: "What is 7 * 6?" }],
    });
    console.log(`step ${step} says: ${reply.choices[0]?.message.content ?? ""}`);

    // 4. Take the trained LoRA out: each file checked against W&B's digest.
    const dir = await mkdtemp(join(tmpdir(), "sft-lora-"));
    try {
      const { files, version } = await model.downloadCheckpoint(step, { dir });
      console.log(`downloaded step ${step} (${version}): ${files.join(", ")}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // 5. Keep the latest step and the one of lowest loss (W&B's free storage holds about 30
    // LoRAs): first see what would go, then delete it.
    const keep = { keepLatest: 1, keepBest: 1, metric: "loss", mode: "min" } as const;
    const planned = await model.pruneCheckpoints({ ...keep, dryRun: true });
    console.log(`would prune steps ${planned.deleted.join(", ") || "none"}`);
    const { kept, deleted } = await model.pruneCheckpoints(keep);
    console.log(`pruned steps ${deleted.join(", ") || "none"}; kept ${kept.join(", ")}`);
  }
} finally {
  await fake?.close();
}
