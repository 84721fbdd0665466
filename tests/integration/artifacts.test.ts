// client.artifacts end to end: real HTTP on loopback to the fake's GraphQL and signed storage.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ArtifactDigestError,
  ArtifactNotFoundError,
  ArtifactUploadError,
  BadRequestError,
  RequestValidationError,
  UnsafeArtifactPathError,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { MULTIPART_CASES } from "../cases/artifact-cases.js";
import { captureWarnings } from "../warnings.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false }, { maxRetries: 1 });
const base = { entity: "acme", project: "rl", type: "dataset" } as const;
const enc = new TextEncoder();

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inferloop-artifacts-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function* chunks(...parts: string[]) {
  for (const p of parts) yield enc.encode(p);
}

const storageRequests = () => fake.svc.requests.filter((r) => r.path.startsWith("/storage/"));

describe("client.artifacts over W&B's GraphQL and signed storage", () => {
  it("uploads every kind of data, reads back the version W&B assigned, and versions the next upload", async () => {
    const first = await fake.client.artifacts.upload({
      ...base,
      name: "data",
      files: [
        { name: "train.jsonl", data: chunks('{"messages":[]}\n', '{"messages":[]}\n') },
        { name: "notes/readme.txt", data: "hello" },
        { name: "bytes.bin", data: new Uint8Array([1, 2, 3]) },
        { name: "blob.txt", data: new Blob(["from a blob"]) },
      ],
      metadata: { format: "jsonl", num_trajectories: 2 },
    });
    expect(first).toMatchObject({ version: "v0", ref: "wandb-artifact:///acme/rl/data:v0", existing: false });
    const second = await fake.client.artifacts.upload({
      ...base,
      name: "data",
      files: [{ name: "train.jsonl", data: "x" }],
    });
    expect(second.version).toBe("v1");

    const got = await fake.client.artifacts.retrieve("acme/rl/data:v0");
    expect(got).toMatchObject({ version: "v0", type: "dataset", metadata: { format: "jsonl", num_trajectories: 2 } });
    expect(got.files.map((f) => [f.name, f.size])).toEqual([
      ["blob.txt", 11],
      ["bytes.bin", 3],
      ["notes/readme.txt", 5],
      ["train.jsonl", 32],
    ]);
    expect((await fake.client.artifacts.retrieve("acme/rl/data")).version).toBe("v1");

    const { files } = await fake.client.artifacts.download("wandb-artifact:///acme/rl/data:v0", { dir });
    expect(files).toHaveLength(4);
    expect(await readFile(join(dir, "notes/readme.txt"), "utf8")).toBe("hello");
    expect(await readFile(join(dir, "train.jsonl"), "utf8")).toBe('{"messages":[]}\n{"messages":[]}\n');
    expect([...(await readFile(join(dir, "bytes.bin")))]).toEqual([1, 2, 3]);
  });

  it("never sends the W&B key or any credential to the signed storage URLs", async () => {
    await fake.client.artifacts.upload({ ...base, name: "secret-check", files: [{ name: "a.txt", data: "a" }] });
    for await (const f of fake.client.artifacts.files("acme/rl/secret-check:latest")) await new Response(f.body).text();
    const storage = storageRequests();
    expect(storage.map((r) => r.method).sort()).toEqual(["GET", "GET", "PUT", "PUT"]);
    for (const r of storage) {
      expect(r.headers.authorization).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain(fake.svc.apiKey);
    }
    // The GraphQL calls themselves carry Basic api:<key>.
    const gql = fake.svc.requests.find((r) => r.path === "/graphql")!;
    expect(gql.headers.authorization).toBe(`Basic ${btoa(`api:${fake.svc.apiKey}`)}`);
  });

  it("the same content again makes no new version: W&B's dedup answer is returned as it is", async () => {
    const a = await fake.client.artifacts.upload({ ...base, name: "same", files: [{ name: "f", data: "1" }] });
    const b = await fake.client.artifacts.upload({ ...base, name: "same", files: [{ name: "f", data: "1" }] });
    expect(b).toMatchObject({ id: a.id, version: "v0", existing: true });
  });

  it("asks for fresh upload URLs when storage says one expired", async () => {
    fake.svc.inject(
      faults.status(403, {
        method: "PUT",
        path: /^\/storage\//,
        body: "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>",
      }),
    );
    const r = await fake.client.artifacts.upload({
      ...base,
      name: "expiring",
      files: [{ name: "f", data: chunks("x") }],
    });
    expect(r.version).toBe("v0");
    expect(
      fake.svc.requests.filter((q) => q.json && JSON.stringify(q.json).includes("CreateArtifactFiles")),
    ).toHaveLength(2);
  });

  it("a failed upload leaves no committed artifact and says which file failed", async () => {
    fake.svc.inject(faults.status(403, { method: "PUT", path: /^\/storage\//, times: 20 }));
    const err = await caught(() =>
      fake.client.artifacts.upload({
        ...base,
        name: "doomed",
        files: [{ name: "train.jsonl", data: chunks("a", "b") }],
      }),
    );
    expect(err).toBeInstanceOf(ArtifactUploadError);
    expect((err as ArtifactUploadError).file).toBe("train.jsonl");
    expect((err as Error).message).toContain("Nothing was committed");
    expect(fake.svc.state.artifacts.list().every((a) => a.state === "PENDING")).toBe(true);
    expect(fake.svc.requests.some((q) => JSON.stringify(q.json ?? "").includes("CommitArtifact"))).toBe(false);
    expect(await caught(() => fake.client.artifacts.retrieve("acme/rl/doomed:latest"))).toBeInstanceOf(
      ArtifactNotFoundError,
    );
  });

  it("refuses bad input before sending anything, naming the field", async () => {
    const err = await caught(() =>
      fake.client.artifacts.upload({ ...base, name: "a/b", type: "wandb-x", files: [{ name: "../up", data: "x" }] }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    const paths = (err as RequestValidationError).issues.map((i) => i.path);
    expect(paths).toEqual(["name", "type", "files.0.name"]);
    const notBytes = await caught(() =>
      fake.client.artifacts.upload({
        ...base,
        name: "ok",
        files: [{ name: "f", data: ["text" as unknown as Uint8Array] }],
      }),
    );
    expect((notBytes as RequestValidationError).issues[0]?.path).toBe("files.0.data");
    expect(await caught(() => fake.client.artifacts.retrieve("just-a-name"))).toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("a GraphQL refusal (status 400 with `errors`) becomes a BadRequestError with W&B's message", async () => {
    fake.svc.inject(
      faults.status(400, {
        path: "/graphql",
        body: {
          data: { createArtifact: null },
          errors: [{ message: "Invalid Client ID digest", path: ["createArtifact"] }],
        },
      }),
    );
    const err = await caught(() =>
      fake.client.artifacts.upload({ ...base, name: "x", files: [{ name: "f", data: "1" }] }),
    );
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toContain("Invalid Client ID digest");
  });

  it("downloads a trained checkpoint as the `lora` artifact {entity}/{project}/{model}:step{N}", async () => {
    const model = await fake.client.trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    expect(await caught(() => fake.client.artifacts.retrieve("acme/rl/agent:step1"))).toBeInstanceOf(
      ArtifactNotFoundError,
    );
    // One trajectory teaches nothing (a finding): this test is about the checkpoint it makes.
    const warnings = captureWarnings();
    await model.train(
      [
        {
          trajectories: [
            {
              messages_and_choices: [
                { role: "user", content: "hi" },
                { index: 0, finish_reason: "stop", message: { role: "assistant", content: "yo" } },
              ],
              reward: 1,
            },
          ],
        },
      ],
      // A hand-built choice has no logprobs: the trainer is told to train it anyway.
      { pollInterval: 5, experimental_config: { allow_training_without_logprobs: true } },
    );
    expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
    const lora = await fake.client.artifacts.retrieve("acme/rl/agent:step1");
    expect(lora).toMatchObject({ type: "lora", aliases: expect.arrayContaining(["step1", "latest"]) });
    await fake.client.artifacts.download("acme/rl/agent:step1", { dir });
    expect((await readdir(dir)).sort()).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
  });

  it("refuses a manifest path outside the directory before writing anything", async () => {
    await fake.client.artifacts.upload({ ...base, name: "evil", files: [{ name: "ok.txt", data: "fine" }] });
    // W&B's server stores such paths (wandb/wandb `wandb/sdk/artifacts/artifact.py`, `download`); make the stored manifest name one.
    const artifact = fake.svc.state.artifacts.list().find((a) => a.collection === "evil")!;
    const key = artifact.manifests.get("wandb_manifest.json")!.key;
    const manifest = JSON.parse(new TextDecoder().decode(fake.svc.state.artifacts.object(key)!.bytes));
    manifest.contents["../escape.txt"] = manifest.contents["ok.txt"];
    fake.svc.state.artifacts.put(key, enc.encode(JSON.stringify(manifest)), artifact.id);
    const err = await caught(() => fake.client.artifacts.download("acme/rl/evil:v0", { dir: join(dir, "inner") }));
    expect(err).toBeInstanceOf(UnsafeArtifactPathError);
    expect((err as UnsafeArtifactPathError).path).toBe("../escape.txt");
    expect(await readdir(dir)).toEqual([]);
  });

  it("a file whose content does not match its digest is refused and not kept", async () => {
    await fake.client.artifacts.upload({ ...base, name: "tampered", files: [{ name: "a.txt", data: "original" }] });
    const artifact = fake.svc.state.artifacts.list().find((a) => a.collection === "tampered")!;
    const key = artifact.files.get("a.txt")!.key;
    fake.svc.state.artifacts.put(key, enc.encode("tampered"), artifact.id);
    const err = await caught(() => fake.client.artifacts.download("acme/rl/tampered:v0", { dir }));
    expect(err).toBeInstanceOf(ArtifactDigestError);
    expect(await readdir(dir)).toEqual([]);
    // Through files() the body stream errors with the same error.
    const read = await caught(async () => {
      for await (const f of fake.client.artifacts.files("acme/rl/tampered:v0")) await new Response(f.body).text();
    });
    expect(read).toBeInstanceOf(ArtifactDigestError);
  });
});

describe("multipart uploads of big files (W&B's clients: 2 GiB and up, in 100 MiB parts)", () => {
  const MiB = 1024 * 1024;
  // 11 MiB + 3 bytes from an async iterable, in 1 MiB chunks of varying bytes.
  function* bigChunks(tail = 7) {
    for (let i = 0; i < 11; i++) yield new Uint8Array(MiB).fill(i + 1);
    yield new Uint8Array([tail, 8, 9]);
  }
  const expected = () => Buffer.concat([...bigChunks()]);
  // A low threshold stands in for W&B's 2 GiB; parts stay at S3's 5 MiB minimum.
  const multipart = { threshold: 8 * MiB, partSize: 5 * MiB };

  it("sends a file over the threshold in parts, completes it, and it reads back whole", async () => {
    const result = await fake.client.artifacts.upload({
      ...base,
      name: "big",
      multipart,
      files: [
        { name: "weights.bin", data: bigChunks() },
        { name: "small.txt", data: "one PUT" },
      ],
    });
    expect(result.version).toBe("v0");
    const puts = storageRequests().filter((r) => r.method === "PUT");
    // Three parts of the big file (5 + 5 + 1 MiB and 3 bytes), one PUT of the small file, one of the manifest.
    expect(puts).toHaveLength(5);
    expect(puts.every((r) => r.headers.authorization === undefined)).toBe(true);
    const ops = fake.svc.requests.filter((r) => r.path === "/graphql").map((r) => JSON.stringify(r.json));
    expect(ops.filter((o) => o.includes("CompleteMultipartUploadArtifact"))).toHaveLength(1);
    expect(fake.svc.state.artifacts.uploads.size).toBe(0);

    await fake.client.artifacts.download(result.ref, { dir });
    expect((await readFile(join(dir, "weights.bin"))).equals(expected())).toBe(true);
    expect(await readFile(join(dir, "small.txt"), "utf8")).toBe("one PUT");
  });

  it("retries a part that failed on its own, and a part that keeps failing leaves nothing committed", async () => {
    fake.svc.inject(faults.status(503, { method: "PUT", path: /^\/storage\//, times: 1 }));
    const before = storageRequests().length;
    const ok = await fake.client.artifacts.upload({
      ...base,
      name: "retried",
      multipart,
      files: [{ name: "w.bin", data: bigChunks(5) }],
    });
    expect(ok.version).toBe("v0");
    // The first part twice, the two others once, then the manifest: the file was not sent again.
    expect(storageRequests().length - before).toBe(5);

    fake.svc.inject(faults.status(403, { method: "PUT", path: /^\/storage\//, times: 50 }));
    const err = await caught(() =>
      fake.client.artifacts.upload({
        ...base,
        name: "doomed-big",
        multipart,
        files: [{ name: "w.bin", data: bigChunks(6) }], // content storage does not have yet
      }),
    );
    expect(err).toBeInstanceOf(ArtifactUploadError);
    expect((err as ArtifactUploadError).file).toBe("w.bin");
    expect(await caught(() => fake.client.artifacts.retrieve("acme/rl/doomed-big:latest"))).toBeInstanceOf(
      ArtifactNotFoundError,
    );
  });

  for (const c of MULTIPART_CASES) {
    it(`shared case: ${c.name} (${c.source})`, async () => {
      const content = new Uint8Array(c.fileSize).map((_, i) => (i * 17 + c.fileSize) % 256);
      const sent = fake.svc.requests.length;
      const upload = () =>
        fake.client.artifacts.upload({
          ...base,
          name: `case-${c.fileSize}-${c.partSize}`,
          multipart: { threshold: 1, partSize: c.partSize },
          files: [{ name: "w.bin", data: content }],
        });
      if (c.sdk === "refuse") {
        const err = await caught(upload);
        expect((err as RequestValidationError).issues[0]?.path).toBe(c.field);
        expect(fake.svc.requests.length).toBe(sent);
        return;
      }
      const { ref } = await upload();
      const partPuts = fake.svc.requests
        .slice(sent)
        .filter(
          (r) =>
            r.method === "PUT" && r.path.startsWith("/storage/") && r.headers["content-type"] !== "application/json",
        );
      expect(partPuts).toHaveLength(c.parts);
      await fake.client.artifacts.download(ref, { dir });
      expect((await readFile(join(dir, "w.bin"))).equals(content)).toBe(true);
    });
  }

  it("refuses parts smaller than S3 takes, before sending anything", async () => {
    const sent = fake.svc.requests.length;
    const err = await caught(() =>
      fake.client.artifacts.upload({
        ...base,
        name: "tiny-parts",
        multipart: { threshold: 1, partSize: 1024 },
        files: [{ name: "w.bin", data: "x" }],
      }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]?.path).toBe("multipart.partSize");
    expect(fake.svc.requests.length).toBe(sent);
  });
});
