/**
 * An upload as W&B's own clients make it (wandb/wandb `core/pkg/artifacts/saver.go`, `ArtifactSaver.Save`):
 * create the artifact with its digest, create its manifest, ask for the files' upload URLs,
 * PUT each file (a big one in parts: multipart.ts), write the manifest with its digest and PUT
 * it, commit, then read back the
 * version W&B assigned. Nothing is committed unless every file was uploaded, so a failed upload
 * leaves only an uncommitted (invisible) artifact.
 */
import { InferloopError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { sleep } from "../../core/pipeline/retry.js";
import { bytesBody } from "../../wire/artifacts/bodies.js";
import { checkUploadParams } from "../../wire/artifacts/checks.js";
import { manifestDigest, md5Base64 } from "../../wire/artifacts/digest.js";
import {
  artifactById,
  commitArtifact,
  createArtifact,
  createFiles,
  createManifest,
} from "../../wire/artifacts/endpoints.js";
import { ArtifactUploadError } from "../../wire/artifacts/errors.js";
import { holdData } from "../../wire/artifacts/file-data.js";
import type { FileSlot } from "../../wire/artifacts/file-slot.js";
import type { HeldBytes } from "../../wire/artifacts/local-files.js";
import { type ManifestEntryOut, manifestBytes } from "../../wire/artifacts/manifest.js";
import { checkHeldSizes, planParts, sendFile } from "../../wire/artifacts/multipart.js";
import { putToStorage, StorageRequestError } from "../../wire/artifacts/storage.js";
import type { ArtifactUploadParams, ArtifactUploadResult } from "../../wire/artifacts/types.js";
import { runGraphQL } from "../../wire/graphql.js";

/** Files uploaded at once. */
const CONCURRENCY = 4;
/** Rounds of fresh upload URLs for files whose upload failed (a signed URL may expire). */
const URL_ROUNDS = 3;

/** W&B's clients send a random 128-character `[a-z0-9]` id per artifact (and per sequence);
 * a retried `createArtifact` resends the same one. */
function clientId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(128));
  let out = "";
  for (const b of bytes) out += alphabet[b % 36];
  return out;
}

// On the first failure the other workers take nothing new, and the failure is thrown only once
// they have stopped: the caller then deletes the spooled files they were reading.
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      try {
        await work(items[next++]!);
      } catch (err) {
        next = items.length;
        throw err;
      }
    }
  });
  const failed = (await Promise.allSettled(runners)).find((r) => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** Runs the whole upload; see the module comment. */
export async function uploadArtifact(
  http: HttpClient,
  params: ArtifactUploadParams,
  options: RequestOptions | undefined,
): Promise<ArtifactUploadResult> {
  checkUploadParams(params);
  const held: HeldBytes[] = [];
  try {
    for (const [i, file] of params.files.entries()) held.push(await holdData(file.data, `files.${i}.data`));
    return await uploadHeldFiles(http, params, held, options);
  } finally {
    await Promise.all(held.map((h) => h.dispose().catch(() => undefined)));
  }
}

/**
 * @internal The upload of files the caller already holds (read once, checked and hashed: an
 * SFT dataset named by its digest), `held[i]` being the content of `params.files[i]`. The
 * caller checked the parameters and disposes of what it holds.
 */
export async function uploadHeldFiles(
  http: HttpClient,
  params: Omit<ArtifactUploadParams, "files"> & { files: ReadonlyArray<{ name: string }> },
  held: readonly HeldBytes[],
  options: RequestOptions | undefined,
): Promise<ArtifactUploadResult> {
  const { entity, project, name, type, runId } = params;
  checkHeldSizes(held, params.multipart);
  const entries: ManifestEntryOut[] = params.files.map((f, i) => ({
    name: f.name,
    digest: held[i]!.digest,
    size: held[i]!.size,
    birthArtifactId: "",
  }));
  const digest = manifestDigest(entries);
  const aliases = [...new Set(["latest", ...(params.aliases ?? [])])];
  const input: Record<string, unknown> = {
    entityName: entity,
    projectName: project,
    artifactTypeName: type,
    artifactCollectionName: name,
    digest,
    digestAlgorithm: "MANIFEST_MD5",
    aliases: aliases.map((alias) => ({ artifactCollectionName: name, alias })),
    enableDigestDeduplication: true,
    clientID: clientId(),
    sequenceClientID: clientId(),
  };
  // Without a run, W&B's uploader sends no runName here and "" to the manifest (whose runName
  // is String!): wandb core/pkg/artifacts/saver.go (UserCreated, as.artifact.RunId).
  if (runId !== undefined) input.runName = runId;
  if (params.metadata !== undefined) input.metadata = JSON.stringify(params.metadata);
  if (params.description !== undefined) input.description = params.description;
  if (params.storageRegion !== undefined) input.storageRegion = params.storageRegion;

  const created = await runGraphQL(http, createArtifact, { input }, options);
  const ref = (version: string) => `wandb-artifact:///${entity}/${project}/${name}:${version}`;
  if (created.state === "COMMITTED") {
    // W&B already has this content as the collection's latest version: no new version.
    const version = await readVersion(http, created.id, options);
    return { id: created.id, version, digest, ref: ref(version), existing: true };
  }
  const manifestVars = {
    artifactID: created.id,
    baseArtifactID: created.latestArtifactId,
    name: "wandb_manifest.json",
    entityName: entity,
    projectName: project,
    runName: runId ?? "",
    manifestType: "FULL",
  };
  const first = await runGraphQL(http, createManifest, { ...manifestVars, digest: "", includeUpload: false }, options);

  await uploadFiles(http, created.id, first.id, entries, held, params.multipart, options);

  const bytes = manifestBytes(entries, params.storageRegion);
  const upsert = await runGraphQL(
    http,
    createManifest,
    { ...manifestVars, digest: md5Base64(bytes), includeUpload: true },
    options,
  );
  if (upsert.uploadUrl === null)
    throw new ArtifactUploadError(
      "wandb_manifest.json",
      "W&B gave no upload URL for the artifact's manifest; nothing was committed.",
    );
  try {
    await putToStorage(http, upsert.uploadUrl, upsert.uploadHeaders, bytesBody(bytes), options?.signal);
  } catch (err) {
    throw uploadFailure("wandb_manifest.json", err);
  }
  await runGraphQL(http, commitArtifact, { artifactID: created.id }, options);
  const version = await readVersion(http, created.id, options);
  return { id: created.id, version, digest, ref: ref(version), existing: false };
}

function uploadFailure(file: string, err: unknown): unknown {
  if (!(err instanceof StorageRequestError)) return err;
  return new ArtifactUploadError(file, `${file}: ${err.message} Nothing was committed.`, err);
}

/** Asks for upload URLs and PUTs every file W&B does not have yet; files that fail get fresh
 * URLs (a signed URL may expire before its upload starts) for a few rounds. */
async function uploadFiles(
  http: HttpClient,
  artifactId: string,
  manifestId: string,
  entries: ManifestEntryOut[],
  held: readonly HeldBytes[],
  multipart: ArtifactUploadParams["multipart"],
  options: RequestOptions | undefined,
): Promise<void> {
  let pending = entries.map((_, i) => i);
  let lastError: unknown;
  // Big files are announced with their parts' MD5s, read once here and again for each round.
  const plans = await planParts(held, multipart);
  for (let round = 0; round < URL_ROUNDS && pending.length > 0; round++) {
    const slots = await runGraphQL(
      http,
      createFiles,
      {
        artifactFiles: pending.map((i) => ({
          artifactID: artifactId,
          artifactManifestID: manifestId,
          name: entries[i]!.name,
          md5: entries[i]!.digest,
          ...(plans.has(i) ? { uploadPartsInput: plans.get(i)!.parts } : {}),
        })),
        storageLayout: "V2",
      },
      options,
    );
    // W&B's Go client matches the answers to the request by position.
    if (slots.length !== pending.length)
      throw new InferloopError(
        `W&B answered createArtifactFiles with ${slots.length} upload slots for ${pending.length} files; nothing was committed.`,
      );
    const failed: number[] = [];
    await inPool(
      pending.map((index, k) => ({ index, slot: slots[k]! as FileSlot })),
      CONCURRENCY,
      async ({ index, slot }) => {
        entries[index]!.birthArtifactId = slot.birthArtifactId;
        if (slot.uploadUrl === null && slot.uploadMultipartUrls == null) return; // W&B already stores this content.
        try {
          await sendFile(http, slot, held[index]!, plans.get(index), options);
        } catch (err) {
          if (!(err instanceof StorageRequestError)) throw err;
          lastError = err;
          failed.push(index);
        }
      },
    );
    pending = failed.sort((a, b) => a - b);
    if (pending.length > 0 && http.config.log.enabled("warn"))
      http.config.log.write(
        "warn",
        `artifacts.upload: ${pending.length} file(s) failed to upload; asking W&B for fresh URLs`,
      );
  }
  if (pending.length > 0) throw uploadFailure(entries[pending[0]!]!.name, lastError);
}

/** The version W&B assigned, read back after the commit. W&B may not serve a just-committed
 * artifact by id at once (ART tolerates "Unable to fetch artifact with id" there), so a few
 * short waits are allowed. */
async function readVersion(http: HttpClient, id: string, options: RequestOptions | undefined): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const found = await runGraphQL(http, artifactById, { id }, options);
    if (found?.versionIndex != null) return `v${found.versionIndex}`;
    if (attempt >= 5)
      throw new InferloopError(
        `The artifact ${id} was committed, but W&B did not report its version; retrieve it by name later.`,
      );
    await sleep(250 * 2 ** attempt, options?.signal);
  }
}
