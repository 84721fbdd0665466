/**
 * client.loras.deploy on the wire (msw): an adapter folder goes up as W&B's LoRA guide asks
 * (type `lora`, metadata `wandb.base_model`, the storage region in `createArtifact`'s input and
 * in the manifest, as wandb core/pkg/artifacts/saver.go sends it), and everything W&B Inference
 * would not serve (a base model it has no adapters for, a rank above that model's limit, a folder
 * that is no PEFT adapter) is refused before a single request.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactNotFoundError, LORA_BASE_MODELS, RequestValidationError } from "../../src/index.js";
import { makeClient, useMsw } from "../core/msw-setup.js";
import { caught } from "../integration/helpers.js";

const { server, seen } = useMsw();
const WANDB = "https://api.wandb.test";
const STORAGE = "https://storage.test";
const ID = "QXJ0aWZhY3Q6Nw==";
const client = () => makeClient({ wandbBaseURL: WANDB, maxRetries: 0 });

interface Op {
  operationName: string;
  variables: Record<string, unknown>;
}

/** Answers each GraphQL operation of an upload (and a lookup by name) the way W&B shapes them. */
function wandb(membership: Record<string, unknown> | null = null) {
  const ops: Op[] = [];
  const stored = new Map<string, string>();
  server.use(
    http.post(`${WANDB}/graphql`, async ({ request }) => {
      const op = (await request.json()) as Op;
      ops.push(op);
      const files = (op.variables.artifactFiles ?? []) as { name: string }[];
      const data: Record<string, unknown> = {
        CreateArtifact: { createArtifact: { artifact: { id: ID, state: "PENDING", artifactSequence: null } } },
        CreateArtifactManifest: {
          createArtifactManifest: {
            artifactManifest: { id: "TWFuaWZlc3Q6MQ==", file: { uploadUrl: `${STORAGE}/wandb_manifest.json` } },
          },
        },
        CreateArtifactFiles: {
          createArtifactFiles: {
            files: { edges: files.map((f) => ({ node: { uploadUrl: `${STORAGE}/${f.name}`, artifact: { id: ID } } })) },
          },
        },
        CommitArtifact: { commitArtifact: { artifact: { id: ID, digest: "d" } } },
        ArtifactByID: { artifact: { id: ID, versionIndex: 0, state: "COMMITTED", digest: "d" } },
        ArtifactMembershipByName: { project: { artifactCollectionMembership: membership } },
      };
      return HttpResponse.json({ data: data[op.operationName] });
    }),
    http.put(`${STORAGE}/*`, async ({ request }) => {
      stored.set(new URL(request.url).pathname.slice(1), await request.text());
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return {
    ops,
    stored,
    input: () => ops.find((o) => o.operationName === "CreateArtifact")!.variables.input as Record<string, unknown>,
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inferloop-lora-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PEFT adapter folder as save_pretrained writes it, with a tokenizer beside it. */
async function adapter(config: Record<string, unknown>, weights = true) {
  await writeFile(
    join(dir, "adapter_config.json"),
    JSON.stringify({ peft_type: "LORA", r: 8, lora_alpha: 16, target_modules: ["q_proj", "v_proj"], ...config }),
  );
  if (weights) await writeFile(join(dir, "adapter_model.safetensors"), new Uint8Array(64).fill(7));
  await mkdir(join(dir, "tokenizer"));
  await writeFile(join(dir, "tokenizer", "tokenizer_config.json"), "{}");
}

const LLAMA = "meta-llama/Llama-3.1-8B-Instruct";
const deploy = { project: "acme/support", name: "support-lora" };

describe("deploying an adapter folder", () => {
  it("stores a `lora` artifact with wandb.base_model and the coreweave-us region, and names the model", async () => {
    await adapter({ base_model_name_or_path: LLAMA });
    const w = wandb();
    const result = await client().loras.deploy({ dir, ...deploy, aliases: ["prod"], metadata: { team: "support" } });

    expect(result.model).toBe("wandb-artifact:///acme/support/support-lora:latest");
    expect(result.baseModel).toBe(LLAMA);
    expect(result.artifact).toMatchObject({ id: ID, version: "v0", existing: false });
    const input = w.input();
    expect(input).toMatchObject({
      entityName: "acme",
      projectName: "support",
      artifactCollectionName: "support-lora",
      artifactTypeName: "lora",
      storageRegion: "coreweave-us",
    });
    expect(JSON.parse(input.metadata as string)).toEqual({ team: "support", "wandb.base_model": LLAMA });
    expect((input.aliases as { alias: string }[]).map((a) => a.alias)).toEqual(["latest", "prod"]);
    const manifest = JSON.parse(w.stored.get("wandb_manifest.json")!);
    expect(manifest.storagePolicyConfig).toEqual({ storageLayout: "V2", storageRegion: "coreweave-us" });
    // Every file of the folder, sub-folders included, under its path inside the folder.
    expect(Object.keys(manifest.contents).sort()).toEqual([
      "adapter_config.json",
      "adapter_model.safetensors",
      "tokenizer/tokenizer_config.json",
    ]);
    expect(w.stored.get("adapter_model.safetensors")).toHaveLength(64);
  });

  it("takes the base model given over adapter_config.json's, and another region when asked", async () => {
    await adapter({ base_model_name_or_path: "/models/llama-local" });
    const w = wandb();
    const result = await client().loras.deploy({ dir, ...deploy, baseModel: LLAMA, region: "coreweave-eu" });
    expect(result.baseModel).toBe(LLAMA);
    expect(w.input().storageRegion).toBe("coreweave-eu");
    expect(JSON.parse(w.stored.get("wandb_manifest.json")!).storagePolicyConfig.storageRegion).toBe("coreweave-eu");
  });

  it("takes a base model W&B added since, with its rank, through baseModels", async () => {
    await adapter({ base_model_name_or_path: "org/new-model", r: 32 });
    wandb();
    const result = await client().loras.deploy({
      dir,
      ...deploy,
      baseModels: { ...LORA_BASE_MODELS, "org/new-model": 32 },
    });
    expect(result.baseModel).toBe("org/new-model");
  });
});

describe("refused before any request", () => {
  const refusal = async (params: Parameters<ReturnType<typeof client>["loras"]["deploy"]>[0]) => {
    wandb();
    const err = await caught(() => client().loras.deploy(params));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
    return err as RequestValidationError;
  };

  it("a rank above the base model's limit, naming the limit and how to retrain", async () => {
    await adapter({ base_model_name_or_path: LLAMA, r: 32 });
    const err = await refusal({ dir, ...deploy });
    expect(err.issues).toEqual([expect.objectContaining({ path: "adapter_config.json.r" })]);
    expect(err.message).toContain(`is 32, above the largest LoRA rank W&B Inference serves for ${LLAMA} (16)`);
    expect(err.message).toContain("train with r <= 16");
  });

  it("a module's rank above the limit in rank_pattern", async () => {
    await adapter({ base_model_name_or_path: LLAMA, rank_pattern: { "layers.0.q_proj": 64 } });
    expect((await refusal({ dir, ...deploy })).issues[0]!.path).toBe("adapter_config.json.rank_pattern");
  });

  it("a base model W&B Inference serves no adapters for, with the nearest one it does", async () => {
    await adapter({ base_model_name_or_path: "Qwen/Qwen3-14B-Instruct" });
    const err = await refusal({ dir, ...deploy });
    expect(err.issues[0]!.path).toBe("adapter_config.json.base_model_name_or_path");
    expect(err.message).toContain('not "Qwen/Qwen3-14B-Instruct" (did you mean "OpenPipe/Qwen3-14B-Instruct"?)');
    expect(err.message).toContain("pass `baseModels`");
  });

  it("a base model in the wrong case", async () => {
    await adapter({});
    const err = await refusal({ dir, ...deploy, baseModel: "meta-llama/llama-3.1-8b-instruct" });
    expect(err.issues[0]!.path).toBe("baseModel");
    expect(err.message).toContain(`did you mean "${LLAMA}"`);
  });

  it("a folder without weights, without adapter_config.json, or no folder at all", async () => {
    await adapter({ base_model_name_or_path: LLAMA }, false);
    expect((await refusal({ dir, ...deploy })).message).toContain("has no adapter_model.safetensors");
    await rm(join(dir, "adapter_config.json"));
    expect((await refusal({ dir, ...deploy, baseModel: LLAMA })).message).toContain("has no adapter_config.json");
    expect((await refusal({ dir: join(dir, "nope"), ...deploy })).issues[0]!.path).toBe("dir");
  });

  it("what vLLM would not load: DoRA, modules_to_save, another PEFT type", async () => {
    await adapter({ base_model_name_or_path: LLAMA, use_dora: true, modules_to_save: ["lm_head"], peft_type: "IA3" });
    const paths = (await refusal({ dir, ...deploy })).issues.map((i) => i.path);
    expect(paths).toEqual([
      "adapter_config.json.peft_type",
      "adapter_config.json.use_dora",
      "adapter_config.json.modules_to_save",
    ]);
  });

  it("a project that is not entity/project, a name that cannot be a model name", async () => {
    const err = await refusal({ dir, project: "support", name: "my lora" });
    expect(err.issues.map((i) => i.path)).toEqual(["project", "name"]);
  });
});

describe("deploying a trainable model's checkpoint", () => {
  const model = { entity: "acme", project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" };

  it("looks the step's `lora` artifact up with one request and names it by step", async () => {
    const w = wandb({
      versionIndex: 2,
      aliases: [{ alias: "step3" }],
      artifact: { id: "lora-3", artifactType: { name: "lora" }, state: "COMMITTED", digest: "abc" },
    });
    const result = await client().loras.deploy({ checkpoint: { model, step: 3 } });
    expect(result).toEqual({
      model: "wandb-artifact:///acme/rl/agent:step3",
      artifact: {
        id: "lora-3",
        version: "v2",
        digest: "abc",
        ref: "wandb-artifact:///acme/rl/agent:v2",
        existing: true,
      },
      baseModel: "OpenPipe/Qwen3-14B-Instruct",
    });
    expect(w.ops.map((o) => [o.operationName, o.variables.name])).toEqual([
      ["ArtifactMembershipByName", "agent:step3"],
    ]);
  });

  it("a step W&B does not have is ArtifactNotFoundError", async () => {
    wandb(null);
    const err = await caught(() => client().loras.deploy({ checkpoint: { model, step: 9 } }));
    expect(err).toBeInstanceOf(ArtifactNotFoundError);
    expect((err as Error).message).toContain("acme/rl/agent:step9");
  });

  it("a base model W&B Inference serves no adapters for is refused before any request", async () => {
    wandb();
    const err = await caught(() =>
      client().loras.deploy({ checkpoint: { model: { ...model, base_model: "Qwen/Qwen3-8B" }, step: 1 } }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toContain("checkpoint.model.base_model");
    expect(seen).toHaveLength(0);
  });
});
