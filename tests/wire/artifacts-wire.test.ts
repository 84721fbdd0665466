/**
 * client.artifacts on the wire (msw): the GraphQL bodies as W&B's own client sends them, Basic
 * `api:<key>` on `wandbBaseURL` only, storage PUTs with only the headers W&B returned (no
 * Authorization), GraphQL errors as typed errors; and the shared artifact cases against the
 * SDK's digests and checks.
 */
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { GraphQLError, InternalServerError, RequestValidationError } from "../../src/index.js";
import { manifestDigest, md5Base64 } from "../../src/wire/artifacts/digest.js";
import { ARTIFACT_INPUT_CASES, bytesOf, DIGEST_CASES } from "../cases/artifact-cases.js";
import { KEY, makeClient, useMsw } from "../core/msw-setup.js";

const { server, seen } = useMsw();
const WANDB = "https://api.wandb.test";
const STORAGE = "https://storage.test";
const client = () => makeClient({ wandbBaseURL: WANDB, maxRetries: 1 });
/** One small file uploaded as the artifact acme/rl/d. */
const uploadSmall = (data = "x") =>
  client().artifacts.upload({
    entity: "acme",
    project: "rl",
    name: "d",
    type: "dataset",
    files: [{ name: "f", data }],
  });
const hexMd5 = (bytes: Uint8Array) => Buffer.from(md5Base64(bytes), "base64").toString("hex");

interface Op {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}

/** A W&B GraphQL double that answers the upload sequence and records each operation. */
function wandb(options: { failFirst?: number; failOnce?: string } = {}) {
  const ops: Op[] = [];
  const puts: { url: string; headers: Headers; body: string; bytes: Uint8Array }[] = [];
  let fail = options.failFirst ?? 0;
  server.use(
    http.post(`${WANDB}/graphql`, async ({ request }) => {
      const op = (await request.json()) as Op;
      ops.push(op);
      const firstOfItsKind = ops.filter((o) => o.operationName === op.operationName).length === 1;
      if (fail-- > 0 || (op.operationName === options.failOnce && firstOfItsKind))
        return HttpResponse.json(
          { errors: [{ message: "upstream" }] },
          { status: 502, headers: { "retry-after-ms": "1" } },
        );
      switch (op.operationName) {
        case "CreateArtifact":
          return HttpResponse.json({
            data: {
              createArtifact: {
                artifact: { id: "QXJ0aWZhY3Q6MQ==", state: "PENDING", artifactSequence: { latestArtifact: null } },
              },
            },
          });
        case "CreateArtifactManifest":
          return HttpResponse.json({
            data: {
              createArtifactManifest: {
                artifactManifest: {
                  id: "TWFuaWZlc3Q6MQ==",
                  file: op.variables.includeUpload
                    ? {
                        id: "f",
                        uploadUrl: `${STORAGE}/manifest?X-Amz-Signature=sig`,
                        uploadHeaders: ["Content-Type:application/json"],
                      }
                    : { id: "f" },
                },
              },
            },
          });
        case "CreateArtifactFiles":
          return HttpResponse.json({
            data: {
              createArtifactFiles: {
                files: {
                  edges: (
                    op.variables.artifactFiles as {
                      name: string;
                      md5: string;
                      uploadPartsInput?: { partNumber: number }[];
                    }[]
                  ).map((f) => ({
                    node: {
                      storagePath: "p",
                      uploadUrl: `${STORAGE}/${f.name}?X-Goog-Signature=s`,
                      uploadHeaders: [
                        `Content-MD5:${f.md5}`,
                        "x-goog-meta-owner: wandb",
                        "Content-Type:application/octet-stream",
                      ],
                      uploadMultipartUrls: f.uploadPartsInput
                        ? {
                            uploadID: "upload-1",
                            uploadUrlParts: f.uploadPartsInput.map((p) => ({
                              partNumber: p.partNumber,
                              uploadUrl: `${STORAGE}/${f.name}?partNumber=${p.partNumber}&uploadId=upload-1&X-Amz-Signature=s`,
                            })),
                          }
                        : null,
                      artifact: { id: "QXJ0aWZhY3Q6MQ==" },
                    },
                  })),
                },
              },
            },
          });
        case "CompleteMultipartUploadArtifact":
          return HttpResponse.json({ data: { completeMultipartUploadArtifact: { digest: "d" } } });
        case "CommitArtifact":
          return HttpResponse.json({ data: { commitArtifact: { artifact: { id: "QXJ0aWZhY3Q6MQ==", digest: "d" } } } });
        case "ArtifactByID":
          return HttpResponse.json({
            data: { artifact: { id: "QXJ0aWZhY3Q6MQ==", versionIndex: 4, state: "COMMITTED", digest: "d" } },
          });
      }
      return HttpResponse.json({ errors: [{ message: `unexpected ${op.operationName}` }] }, { status: 400 });
    }),
    http.put(`${STORAGE}/*`, async ({ request }) => {
      const bytes = new Uint8Array(await request.arrayBuffer());
      puts.push({
        url: request.url,
        headers: new Headers(request.headers),
        body: new TextDecoder().decode(bytes),
        bytes,
      });
      // S3 answers a part with its ETag: the quoted hex MD5.
      return new HttpResponse(null, { status: 200, headers: { etag: `"${hexMd5(bytes)}"` } });
    }),
  );
  return { ops, puts };
}

describe("client.artifacts.upload on the wire", () => {
  it("sends W&B's mutations in W&B's order with its inputs, and storage only the headers W&B returned", async () => {
    const { ops, puts } = wandb();
    const res = await client().artifacts.upload({
      entity: "acme",
      project: "rl",
      name: "data",
      type: "dataset",
      runId: "run-1",
      aliases: ["best"],
      metadata: { format: "jsonl" },
      files: [{ name: "train.jsonl", data: '{"messages":[]}\n' }],
    });
    expect(res).toEqual({
      id: "QXJ0aWZhY3Q6MQ==",
      version: "v4",
      digest: expect.any(String),
      ref: "wandb-artifact:///acme/rl/data:v4",
      existing: false,
    });
    expect(ops.map((o) => o.operationName)).toEqual([
      "CreateArtifact",
      "CreateArtifactManifest",
      "CreateArtifactFiles",
      "CreateArtifactManifest",
      "CommitArtifact",
      "ArtifactByID",
    ]);
    const input = ops[0]!.variables.input as Record<string, unknown>;
    expect(input).toMatchObject({
      entityName: "acme",
      projectName: "rl",
      artifactTypeName: "dataset",
      artifactCollectionName: "data",
      runName: "run-1",
      digestAlgorithm: "MANIFEST_MD5",
      digest: manifestDigest([{ name: "train.jsonl", digest: "IHmZBXrwFVaoFoFwDaLWpg==" }]),
      aliases: [
        { artifactCollectionName: "data", alias: "latest" },
        { artifactCollectionName: "data", alias: "best" },
      ],
      enableDigestDeduplication: true,
      metadata: '{"format":"jsonl"}',
    });
    expect(input.clientID).toMatch(/^[a-z0-9]{128}$/);
    expect(input.sequenceClientID).toMatch(/^[a-z0-9]{128}$/);
    expect(ops[1]!.variables).toMatchObject({
      digest: "",
      includeUpload: false,
      manifestType: "FULL",
      name: "wandb_manifest.json",
      runName: "run-1",
      baseArtifactID: null,
    });
    expect(ops[2]!.variables).toEqual({
      storageLayout: "V2",
      artifactFiles: [
        {
          artifactID: "QXJ0aWZhY3Q6MQ==",
          artifactManifestID: "TWFuaWZlc3Q6MQ==",
          name: "train.jsonl",
          md5: "IHmZBXrwFVaoFoFwDaLWpg==",
        },
      ],
    });
    expect(ops[3]!.variables).toMatchObject({
      includeUpload: true,
      digest: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
    });

    // Storage: the file, then the manifest, each with only the headers W&B returned.
    expect(puts.map((p) => new URL(p.url).pathname)).toEqual(["/train.jsonl", "/manifest"]);
    expect(puts[0]!.body).toBe('{"messages":[]}\n');
    expect(puts[0]!.headers.get("content-md5")).toBe("IHmZBXrwFVaoFoFwDaLWpg==");
    expect(puts[0]!.headers.get("x-goog-meta-owner")).toBe("wandb");
    const manifest = JSON.parse(puts[1]!.body);
    expect(manifest).toEqual({
      version: 1,
      storagePolicy: "wandb-storage-policy-v1",
      storagePolicyConfig: { storageLayout: "V2" },
      contents: {
        "train.jsonl": { digest: "IHmZBXrwFVaoFoFwDaLWpg==", size: 16, birthArtifactID: "QXJ0aWZhY3Q6MQ==" },
      },
    });
    expect(ops[3]!.variables.digest).toBe(md5Base64(bytesOf(puts[1]!.body)));
    for (const p of puts) {
      expect(p.headers.get("authorization")).toBeNull();
      expect([...p.headers.values()].join(" ")).not.toContain(KEY);
    }
    const graphql = seen.filter((s) => s.url.pathname === "/graphql");
    expect(graphql.every((s) => s.headers.get("authorization") === `Basic ${btoa(`api:${KEY}`)}`)).toBe(true);
    expect(graphql.every((s) => s.url.origin === WANDB)).toBe(true);
  });

  // wandb core/pkg/artifacts/multipart.go and saver.go (uploadMultipart): parts announced with
  // their hex MD5s in uploadPartsInput, each PUT with Content-MD5 (base64), Content-Length and
  // W&B's Content-Type, then completeMultipartUploadArtifact with the ETags in hexMD5, the birth
  // artifact's id, the storage path and the upload id.
  it("sends a file over the multipart threshold in parts, as W&B's uploader does", async () => {
    const { ops, puts } = wandb();
    const MiB = 1024 * 1024;
    const data = new Uint8Array(11 * MiB + 3).map((_, i) => (i * 7) % 251);
    await client().artifacts.upload({
      entity: "acme",
      project: "rl",
      name: "d",
      type: "lora",
      multipart: { threshold: 8 * MiB, partSize: 5 * MiB },
      files: [{ name: "adapter.bin", data }],
    });
    const parts = [data.subarray(0, 5 * MiB), data.subarray(5 * MiB, 10 * MiB), data.subarray(10 * MiB)];
    const files = ops.find((o) => o.operationName === "CreateArtifactFiles")!;
    expect(files.query).toContain("uploadMultipartUrls { uploadID uploadUrlParts { partNumber uploadUrl } }");
    expect((files.variables.artifactFiles as Record<string, unknown>[])[0]!.uploadPartsInput).toEqual(
      parts.map((p, i) => ({ partNumber: i + 1, hexMD5: hexMd5(p) })),
    );
    const partPuts = puts.filter((p) => p.url.includes("partNumber="));
    expect(partPuts.map((p) => new URL(p.url).searchParams.get("partNumber"))).toEqual(["1", "2", "3"]);
    partPuts.forEach((p, i) => {
      expect(Buffer.from(p.bytes).equals(parts[i]!)).toBe(true); // not a deep toEqual of megabytes
      expect(p.headers.get("content-md5")).toBe(md5Base64(parts[i]!));
      expect(p.headers.get("content-length")).toBe(String(parts[i]!.byteLength));
      expect(p.headers.get("content-type")).toBe("application/octet-stream");
      expect(p.headers.get("authorization")).toBeNull();
    });
    const complete = ops.find((o) => o.operationName === "CompleteMultipartUploadArtifact")!;
    expect(complete.variables).toEqual({
      completeMultipartAction: "Complete",
      completedParts: parts.map((p, i) => ({ partNumber: i + 1, hexMD5: `"${hexMd5(p)}"` })),
      artifactID: "QXJ0aWZhY3Q6MQ==",
      storagePath: "p",
      uploadID: "upload-1",
    });
    // The file is whole in storage before its manifest is written and the artifact committed.
    const names = ops.map((o) => o.operationName);
    expect(names.indexOf("CompleteMultipartUploadArtifact")).toBeLessThan(names.lastIndexOf("CreateArtifactManifest"));
    expect(puts.some((p) => p.url.startsWith(`${STORAGE}/adapter.bin?X-Goog`))).toBe(false); // not also in one PUT
  });

  it("sends a file under the threshold in one PUT, announcing no parts", async () => {
    const { ops, puts } = wandb();
    await uploadSmall("small");
    const files = ops.find((o) => o.operationName === "CreateArtifactFiles")!;
    expect("uploadPartsInput" in (files.variables.artifactFiles as Record<string, unknown>[])[0]!).toBe(false);
    expect(ops.some((o) => o.operationName === "CompleteMultipartUploadArtifact")).toBe(false);
    expect(puts.filter((p) => p.url.startsWith(`${STORAGE}/f?`))).toHaveLength(1);
  });

  // wandb core/internal/api/gql_client.go sends every GraphQL request, commitArtifact included,
  // with RetryPolicy clients.CheckRetry (core/internal/clients/retry_policy.go: connection
  // errors, 429, 5xx but 501), so W&B's own uploader treats a repeated commit as safe.
  it("sends commitArtifact again when its answer was lost (a 502), as W&B's uploader does", async () => {
    const { ops } = wandb({ failOnce: "CommitArtifact" });
    const result = await uploadSmall();
    const commits = ops.filter((o) => o.operationName === "CommitArtifact");
    expect(commits).toHaveLength(2);
    expect(commits[1]!.variables).toEqual(commits[0]!.variables);
    expect(result.version).toBe("v4");
  });

  // W&B's Go uploader (core/pkg/artifacts/saver.go) sends runName null to createArtifact for an
  // artifact no run logs (UserCreated), and the artifact's RunId, "" then, to createArtifactManifest
  // (whose runName is String!).
  it('without a run: no runName in createArtifact, runName "" in createArtifactManifest', async () => {
    const { ops } = wandb();
    await uploadSmall();
    const input = ops.find((o) => o.operationName === "CreateArtifact")!.variables.input as Record<string, unknown>;
    expect("runName" in input).toBe(false);
    const manifests = ops.filter((o) => o.operationName === "CreateArtifactManifest");
    expect(manifests.length).toBeGreaterThan(0);
    for (const m of manifests) expect(m.variables.runName).toBe("");
  });

  it("retries a GraphQL 5xx, and turns a 200 with `errors` into a GraphQLError with W&B's message", async () => {
    const { ops } = wandb({ failFirst: 1 });
    await uploadSmall();
    expect(ops[0]!.operationName).toBe("CreateArtifact");
    expect(ops[1]!.operationName).toBe("CreateArtifact");
    expect(ops[0]!.variables.input).toEqual(ops[1]!.variables.input); // the same clientID on the retry

    server.use(
      http.post(`${WANDB}/graphql`, () =>
        HttpResponse.json({
          data: { createArtifact: null },
          errors: [{ message: "permission denied", path: ["createArtifact"] }],
        }),
      ),
    );
    const err = await uploadSmall().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphQLError);
    expect((err as GraphQLError).message).toBe("artifacts.create: permission denied");
    expect((err as GraphQLError).errors).toEqual([{ message: "permission denied", path: ["createArtifact"] }]);

    server.use(
      http.post(`${WANDB}/graphql`, () =>
        HttpResponse.json({ errors: ["boom"] }, { status: 503, headers: { "retry-after-ms": "1" } }),
      ),
    );
    const down = await uploadSmall().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(InternalServerError);
    expect((down as Error).message).toContain("boom");
  });
});

describe("the shared artifact cases against the SDK", () => {
  it.each(DIGEST_CASES.map((c) => [c.source, c] as const))("digests: %s", (_, c) => {
    for (const f of c.files) expect(md5Base64(bytesOf(f.content as string | number[]))).toBe(f.digest);
    if (c.manifestDigest !== undefined) expect(manifestDigest(c.files)).toBe(c.manifestDigest);
  });

  it.each(ARTIFACT_INPUT_CASES.map((c) => [c.name, c] as const))("input: %s", async (_, c) => {
    const { ops } = wandb();
    const result = client()
      .artifacts.upload({
        entity: "acme",
        project: "rl",
        name: c.input.name,
        type: c.input.type,
        ...(c.input.aliases ? { aliases: c.input.aliases } : {}),
        files: [{ name: c.input.fileName ?? "train.jsonl", data: "x" }],
      })
      .catch((e: unknown) => e);
    const outcome = await result;
    if (c.sdk === "refuse") {
      expect(outcome).toBeInstanceOf(RequestValidationError);
      expect((outcome as RequestValidationError).issues.map((i) => i.path)).toContain(c.field);
      expect(ops).toHaveLength(0);
    } else {
      expect(outcome).toMatchObject({ version: "v4" });
    }
  });
});
