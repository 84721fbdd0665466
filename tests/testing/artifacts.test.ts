/**
 * The fake's W&B artifact subset with plain fetch (no SDK): the GraphQL upload sequence as W&B's
 * own clients send it, versions the fake assigns, signed storage that refuses any Authorization
 * header, and the shared artifact cases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { md5Base64 } from "../../src/testing/artifacts/store.js";
import { type FakeService, startFakeService } from "../../src/testing/index.js";
import { ARTIFACT_INPUT_CASES, bytesOf, DIGEST_CASES, MULTIPART_CASES } from "../cases/artifact-cases.js";
import { postJson } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false });
});
afterAll(() => svc.close());
beforeEach(() => svc.reset());

const wandbAuth = () => ({ authorization: `Basic ${Buffer.from(`api:${svc.apiKey}`).toString("base64")}` });

async function gql(query: string, variables: Record<string, unknown>, headers = wandbAuth()) {
  const res = await postJson(svc, "/graphql", { query, variables }, headers);
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, any>; errors?: { message: string }[] },
  };
}

const CREATE =
  "mutation CreateArtifact($input: CreateArtifactInput!) { createArtifact(input: $input) { artifact { id state versionIndex } } }";
const MANIFEST =
  "mutation CreateArtifactManifest($artifactID: ID!, $baseArtifactID: ID, $name: String!, $digest: String!, $entityName: String!, $projectName: String!, $runName: String!, $manifestType: ArtifactManifestType!, $includeUpload: Boolean!) { createArtifactManifest(input: { artifactID: $artifactID, baseArtifactID: $baseArtifactID, name: $name, digest: $digest, entityName: $entityName, projectName: $projectName, runName: $runName, type: $manifestType }) { artifactManifest { id file { id uploadUrl @include(if: $includeUpload) uploadHeaders @include(if: $includeUpload) } } } }";
const FILES =
  "mutation CreateArtifactFiles($artifactFiles: [CreateArtifactFileSpecInput!]!, $storageLayout: ArtifactStorageLayout!) { createArtifactFiles(input: { artifactFiles: $artifactFiles, storageLayout: $storageLayout }) { files { edges { node { uploadUrl uploadHeaders artifact { id } } } } } }";
const COMMIT =
  "mutation CommitArtifact($artifactID: ID!) { commitArtifact(input: { artifactID: $artifactID }) { artifact { id digest } } }";
const BY_ID = "query ArtifactByID($id: ID!) { artifact(id: $id) { id versionIndex state } }";

const input = (over: Record<string, unknown> = {}) => ({
  entityName: "acme",
  projectName: "rl",
  artifactTypeName: "dataset",
  artifactCollectionName: "data",
  digest: "0123456789abcdef0123456789abcdef",
  digestAlgorithm: "MANIFEST_MD5",
  aliases: [{ artifactCollectionName: "data", alias: "latest" }],
  enableDigestDeduplication: true,
  clientID: `c${Math.random().toString(36).slice(2)}`,
  ...over,
});

function put(url: string, headers: string[], body: Uint8Array, extra: Record<string, string> = {}) {
  const h: Record<string, string> = { ...extra };
  for (const line of headers) h[line.slice(0, line.indexOf(":"))] = line.slice(line.indexOf(":") + 1);
  return fetch(url, { method: "PUT", headers: h, body: body as Uint8Array<ArrayBuffer> });
}

/** createArtifactManifest's variables for the full manifest of artifact `id` in acme/rl. */
const manifestVars = (id: string, runName: string) => ({
  artifactID: id,
  baseArtifactID: null,
  name: "wandb_manifest.json",
  entityName: "acme",
  projectName: "rl",
  runName,
  manifestType: "FULL",
});

/** The whole sequence for one file, as W&B's Go client runs it; returns the artifact id. */
async function uploadOne(content: string, over: Record<string, unknown> = {}): Promise<string> {
  const created = await gql(CREATE, { input: input(over) });
  const id = created.body.data!.createArtifact.artifact.id as string;
  const vars = manifestVars(id, "r");
  const m1 = await gql(MANIFEST, { ...vars, digest: "", includeUpload: false });
  const digest = md5Base64(bytesOf(content));
  const files = await gql(FILES, {
    storageLayout: "V2",
    artifactFiles: [
      {
        artifactID: id,
        artifactManifestID: m1.body.data!.createArtifactManifest.artifactManifest.id,
        name: "f.txt",
        md5: digest,
      },
    ],
  });
  const slot = files.body.data!.createArtifactFiles.files.edges[0].node;
  if (slot.uploadUrl) expect((await put(slot.uploadUrl, slot.uploadHeaders, bytesOf(content))).status).toBe(200);
  const manifest = bytesOf(
    JSON.stringify({
      version: 1,
      storagePolicy: "wandb-storage-policy-v1",
      storagePolicyConfig: { storageLayout: "V2" },
      contents: { "f.txt": { digest, size: content.length } },
    }),
  );
  const m2 = await gql(MANIFEST, { ...vars, digest: md5Base64(manifest), includeUpload: true });
  const file = m2.body.data!.createArtifactManifest.artifactManifest.file;
  expect((await put(file.uploadUrl, file.uploadHeaders, manifest)).status).toBe(200);
  expect((await gql(COMMIT, { artifactID: id })).status).toBe(200);
  return id;
}

describe("the fake's W&B artifact GraphQL and storage", () => {
  it("assigns v0, v1, ... at commit, in commit order", async () => {
    const a = await uploadOne("one");
    const b = await uploadOne("two", { digest: "fedcba9876543210fedcba9876543210" });
    expect((await gql(BY_ID, { id: a })).body.data!.artifact.versionIndex).toBe(0);
    expect((await gql(BY_ID, { id: b })).body.data!.artifact.versionIndex).toBe(1);
  });

  it("refuses a commit before the files and manifest are stored: nothing is committed", async () => {
    const created = await gql(CREATE, { input: input() });
    const id = created.body.data!.createArtifact.artifact.id;
    const res = await gql(COMMIT, { artifactID: id });
    expect(res.status).toBe(400);
    expect(res.body.errors![0]!.message).toMatch(/manifest was not uploaded/);
    expect((await gql(BY_ID, { id })).body.data!.artifact).toMatchObject({ state: "PENDING", versionIndex: null });
  });

  it("signed storage refuses a request that also carries an Authorization header", async () => {
    const created = await gql(CREATE, { input: input() });
    const id = created.body.data!.createArtifact.artifact.id;
    const m1 = await gql(MANIFEST, {
      artifactID: id,
      baseArtifactID: null,
      name: "wandb_manifest.json",
      digest: "",
      entityName: "acme",
      projectName: "rl",
      runName: "r",
      manifestType: "FULL",
      includeUpload: false,
    });
    const files = await gql(FILES, {
      storageLayout: "V2",
      artifactFiles: [
        {
          artifactID: id,
          artifactManifestID: m1.body.data!.createArtifactManifest.artifactManifest.id,
          name: "f",
          md5: md5Base64(bytesOf("x")),
        },
      ],
    });
    const slot = files.body.data!.createArtifactFiles.files.edges[0].node;
    const res = await put(slot.uploadUrl, slot.uploadHeaders, bytesOf("x"), wandbAuth());
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Only one auth mechanism allowed");
    expect((await put(slot.uploadUrl, slot.uploadHeaders, bytesOf("y"))).status).toBe(400); // BadDigest
    expect((await put(slot.uploadUrl, slot.uploadHeaders, bytesOf("x"))).status).toBe(200);
  });

  // W&B's Go uploader retries commitArtifact like every GraphQL request (core/internal/api/gql_client.go:
  // RetryPolicy clients.CheckRetry), so a commit whose answer was lost comes again.
  it("answers a repeated commitArtifact with the same version, making no other", async () => {
    const id = await uploadOne("once");
    const again = await gql(COMMIT, { artifactID: id });
    expect(again.status).toBe(200);
    expect(again.body.data!.commitArtifact.artifact.id).toBe(id);
    expect((await gql(BY_ID, { id })).body.data!.artifact).toMatchObject({ versionIndex: 0, state: "COMMITTED" });
    expect(svc.state.artifacts.list().filter((a) => a.state === "COMMITTED")).toHaveLength(1);
  });

  it("answers a retried createArtifact (same clientID) with the same artifact, and refuses it with another digest", async () => {
    const first = await gql(CREATE, { input: input({ clientID: "same" }) });
    const again = await gql(CREATE, { input: input({ clientID: "same" }) });
    expect(again.body.data!.createArtifact.artifact.id).toBe(first.body.data!.createArtifact.artifact.id);
    const changed = await gql(CREATE, {
      input: input({ clientID: "same", digest: "ffffffffffffffffffffffffffffffff" }),
    });
    expect(changed.status).toBe(400);
    expect(changed.body).toEqual({
      data: { createArtifact: null },
      errors: [{ message: "Invalid Client ID digest", path: ["createArtifact"] }],
    });
  });

  it("needs W&B's Basic auth (the API key as password)", async () => {
    const res = await postJson(
      svc,
      "/graphql",
      { query: CREATE, variables: { input: input() } },
      { authorization: `Bearer ${svc.apiKey}` },
    );
    expect(res.status).toBe(401);
  });

  it.each(DIGEST_CASES.map((c) => [c.source, c] as const))("file digests: %s", (_, c) => {
    for (const f of c.files) expect(md5Base64(bytesOf(f.content as string | number[]))).toBe(f.digest);
  });

  it.each(ARTIFACT_INPUT_CASES.filter((c) => c.server !== "unknown").map((c) => [c.name, c] as const))(
    "input: %s",
    async (_, c) => {
      const aliases = ["latest", ...(c.input.aliases ?? [])].map((alias) => ({
        artifactCollectionName: c.input.name,
        alias,
      }));
      const res = await gql(CREATE, {
        input: input({ artifactCollectionName: c.input.name, artifactTypeName: c.input.type, aliases }),
      });
      if (c.server === "refuse") {
        expect(res.status).toBe(400);
        expect(res.body.errors?.length).toBeGreaterThan(0);
      } else expect(res.body.data!.createArtifact.artifact.state).toBe("PENDING");
    },
  );
});

const PARTS =
  "mutation CreateArtifactFiles($artifactFiles: [CreateArtifactFileSpecInput!]!, $storageLayout: ArtifactStorageLayout!) { createArtifactFiles(input: { artifactFiles: $artifactFiles, storageLayout: $storageLayout }) { files { edges { node { storagePath uploadUrl uploadHeaders uploadMultipartUrls { uploadID uploadUrlParts { partNumber uploadUrl } } artifact { id } } } } } }";
const COMPLETE =
  "mutation CompleteMultipartUploadArtifact($completeMultipartAction: CompleteMultipartAction!, $completedParts: [UploadPartsInput!]!, $artifactID: ID!, $storagePath: String!, $uploadID: String!) { completeMultipartUploadArtifact(input: { completeMultipartAction: $completeMultipartAction, completedParts: $completedParts, artifactID: $artifactID, storagePath: $storagePath, uploadID: $uploadID }) { digest } }";
const hexOf = (bytes: Uint8Array) => Buffer.from(md5Base64(bytes), "base64").toString("hex");

describe("multipart uploads, as W&B's Go uploader sends them (shared cases)", () => {
  for (const c of MULTIPART_CASES) {
    it(`${c.name} (${c.source})`, async () => {
      const content = new Uint8Array(c.fileSize).map((_, i) => (i * 31 + c.partSize) % 256);
      const created = await gql(CREATE, { input: input({ artifactCollectionName: `mp-${c.parts}-${c.partSize}` }) });
      const id = created.body.data!.createArtifact.artifact.id as string;
      const manifest = await gql(MANIFEST, { ...manifestVars(id, ""), digest: "", includeUpload: false });
      const parts: Uint8Array[] = [];
      for (let at = 0; at < content.length; at += c.partSize) parts.push(content.subarray(at, at + c.partSize));
      expect(parts).toHaveLength(c.parts);
      const files = await gql(PARTS, {
        storageLayout: "V2",
        artifactFiles: [
          {
            artifactID: id,
            artifactManifestID: manifest.body.data!.createArtifactManifest.artifactManifest.id,
            name: "big.bin",
            md5: md5Base64(content),
            uploadPartsInput: parts.map((p, i) => ({ partNumber: i + 1, hexMD5: hexOf(p) })),
          },
        ],
      });
      const node = files.body.data!.createArtifactFiles.files.edges[0].node;
      const urls = node.uploadMultipartUrls.uploadUrlParts as { partNumber: number; uploadUrl: string }[];
      expect(urls.map((u) => u.partNumber)).toEqual(parts.map((_, i) => i + 1));
      const etags: string[] = [];
      for (const [i, u] of urls.entries()) {
        const res = await put(u.uploadUrl, [`Content-MD5:${md5Base64(parts[i]!)}`], parts[i]!);
        expect(res.status).toBe(200);
        expect(res.headers.get("etag")).toBe(`"${hexOf(parts[i]!)}"`);
        etags.push(res.headers.get("etag")!);
      }
      const done = await gql(COMPLETE, {
        completeMultipartAction: "Complete",
        completedParts: etags.map((hexMD5, i) => ({ partNumber: i + 1, hexMD5 })),
        artifactID: node.artifact.id,
        storagePath: node.storagePath,
        uploadID: node.uploadMultipartUrls.uploadID,
      });
      if (c.server === "refuse") {
        expect(done.status).toBe(400);
        expect(done.body.errors![0]!.message).toContain("EntityTooSmall");
        expect(svc.state.artifacts.object(node.storagePath)).toBeUndefined();
        return;
      }
      expect(done.status).toBe(200);
      // Buffer.equals: a deep toEqual of megabytes would hold the event loop (and the fake) for seconds.
      expect(Buffer.from(svc.state.artifacts.object(node.storagePath)!.bytes).equals(content)).toBe(true);
    });
  }

  it("refuses a part whose content is not the one announced, and a completion with a wrong ETag", async () => {
    const content = new Uint8Array(6 * 1024 * 1024).fill(3);
    const created = await gql(CREATE, { input: input({ artifactCollectionName: "mp-bad" }) });
    const id = created.body.data!.createArtifact.artifact.id as string;
    const parts = [content.subarray(0, 5 * 1024 * 1024), content.subarray(5 * 1024 * 1024)];
    const files = await gql(PARTS, {
      storageLayout: "V2",
      artifactFiles: [
        {
          artifactID: id,
          name: "big.bin",
          md5: md5Base64(content),
          uploadPartsInput: parts.map((p, i) => ({ partNumber: i + 1, hexMD5: hexOf(p) })),
        },
      ],
    });
    const node = files.body.data!.createArtifactFiles.files.edges[0].node;
    const [first, second] = node.uploadMultipartUrls.uploadUrlParts as { uploadUrl: string }[];
    expect((await put(first!.uploadUrl, [], parts[1]!)).status).toBe(403);
    expect((await put(first!.uploadUrl, [], parts[0]!)).status).toBe(200);
    expect((await put(second!.uploadUrl, [], parts[1]!)).status).toBe(200);
    const done = await gql(COMPLETE, {
      completeMultipartAction: "Complete",
      completedParts: [
        { partNumber: 1, hexMD5: `"${hexOf(parts[0]!)}"` },
        { partNumber: 2, hexMD5: '"00000000000000000000000000000000"' },
      ],
      artifactID: node.artifact.id,
      storagePath: node.storagePath,
      uploadID: node.uploadMultipartUrls.uploadID,
    });
    expect(done.status).toBe(400);
    expect(done.body.errors![0]!.message).toContain("InvalidPart");
  });
});
