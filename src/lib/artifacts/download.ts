/**
 * Reading an artifact back (wandb/wandb `wandb/sdk/artifacts/artifact.py`, `download`): find the version by `name:alias`, fetch
 * its manifest (the files' digests), list the files' signed URLs, then GET each with no
 * credentials and check its MD5. A URL that expired is asked for again once.
 */
import { RequestValidationError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { base64Bytes, readableOf } from "../../wire/artifacts/bytes.js";
import { type ArtifactRef, parseRef, unsafePathReason } from "../../wire/artifacts/checks.js";
import {
  type FileUrlPage,
  fileUrls,
  type Membership,
  manifestUrl,
  membershipByName,
} from "../../wire/artifacts/endpoints.js";
import { ArtifactDigestError, ArtifactNotFoundError, UnsafeArtifactPathError } from "../../wire/artifacts/errors.js";
import { hasFileSystem, pathUnder, writeChecked } from "../../wire/artifacts/local-files.js";
import { manifestFiles } from "../../wire/artifacts/manifest.js";
import { createMd5 } from "../../wire/artifacts/md5.js";
import { getFromStorage, StorageRequestError } from "../../wire/artifacts/storage.js";
import type { Artifact, ArtifactFile, ArtifactFileEntry } from "../../wire/artifacts/types.js";
import { runGraphQL } from "../../wire/graphql.js";

const PER_PAGE = 100;

/** A resolved artifact version: what `retrieve` returns, plus what the file reads need. */
interface Resolved {
  ref: ArtifactRef;
  membership: Membership;
  files: ArtifactFileEntry[];
}

async function resolve(
  http: HttpClient,
  refText: string,
  operation: string,
  options: RequestOptions | undefined,
): Promise<Resolved> {
  const ref = parseRef(refText, operation);
  const membership = await runGraphQL(
    http,
    membershipByName,
    { entity: ref.entity, project: ref.project, name: `${ref.name}:${ref.alias}` },
    options,
  );
  if (membership === null) throw new ArtifactNotFoundError(`${ref.entity}/${ref.project}/${ref.name}:${ref.alias}`);
  const url = await runGraphQL(http, manifestUrl, { id: membership.id }, options);
  const res = await getFromStorage(http, url, options?.signal);
  const { text, complete } = await res.text(http.config.maxBufferBytes);
  if (!complete) throw new StorageRequestError("The artifact's manifest is larger than maxBufferBytes.");
  return { ref, membership, files: manifestFiles(text) };
}

/** `client.artifacts.retrieve`. */
export async function retrieveArtifact(
  http: HttpClient,
  refText: string,
  options: RequestOptions | undefined,
): Promise<Artifact> {
  const { ref, membership, files } = await resolve(http, refText, "artifacts.retrieve", options);
  return {
    id: membership.id,
    entity: ref.entity,
    project: ref.project,
    name: ref.name,
    version: `v${membership.versionIndex}`,
    digest: membership.digest,
    type: membership.type,
    aliases: membership.aliases,
    state: membership.state,
    metadata: membership.metadata,
    files,
  };
}

/** Every file's signed URL, by path. The version is named by `vN`, so a moved alias
 * (`latest`) cannot switch the files under a download. */
async function urlsOf(
  http: HttpClient,
  r: Resolved,
  options: RequestOptions | undefined,
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  let cursor: string | null = null;
  for (;;) {
    const page: FileUrlPage = await runGraphQL(
      http,
      fileUrls,
      {
        entity: r.ref.entity,
        project: r.ref.project,
        collection: r.ref.name,
        alias: `v${r.membership.versionIndex}`,
        cursor,
        perPage: PER_PAGE,
      },
      options,
    );
    for (const f of page.files) urls.set(f.name, f.directUrl);
    if (!page.hasNextPage || page.endCursor === null || page.files.length === 0) return urls;
    cursor = page.endCursor;
  }
}

/** Opens one file's body; an expired URL (storage's 4xx) is replaced once by a fresh one. */
async function openFile(
  http: HttpClient,
  r: Resolved,
  urls: { current: Map<string, string> },
  entry: ArtifactFileEntry,
  options: RequestOptions | undefined,
) {
  for (let fresh = false; ; fresh = true) {
    const url = urls.current.get(entry.name);
    if (url === undefined) throw new StorageRequestError(`W&B listed no download URL for ${entry.name}.`);
    try {
      return await getFromStorage(http, url, options?.signal);
    } catch (err) {
      const expired = err instanceof StorageRequestError && err.status !== undefined && err.status < 500;
      if (!expired || fresh) throw err;
      urls.current = await urlsOf(http, r, options);
    }
  }
}

/** The body's chunks, hashed as they pass; at the end the digest (and size) must match. */
async function* verified(entry: ArtifactFileEntry, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const h = createMd5();
  let size = 0;
  for await (const chunk of chunks) {
    h.update(chunk);
    size += chunk.byteLength;
    yield chunk;
  }
  const actual = base64Bytes(h.digest());
  if (actual !== entry.digest)
    throw new ArtifactDigestError(entry.name, entry.digest, actual, { expected: entry.size, actual: size });
}

/** `client.artifacts.files`: each file in path order, its body checked as it is read. */
export async function* artifactFiles(
  http: HttpClient,
  refText: string,
  options: RequestOptions | undefined,
): AsyncGenerator<ArtifactFile> {
  const r = await resolve(http, refText, "artifacts.files", options);
  const urls = { current: await urlsOf(http, r, options) };
  for (const entry of r.files) {
    const res = await openFile(http, r, urls, entry, options);
    yield { name: entry.name, size: entry.size, digest: entry.digest, body: readableOf(verified(entry, res.body)) };
  }
}

/**
 * What `client.artifacts.download` resolves to.
 */
export interface ArtifactDownload {
  /** The directory the files were written under. */
  dir: string;
  /** The version downloaded (`v3`), whatever alias named it. */
  version: string;
  /** The paths written, relative to `dir`. */
  files: string[];
}

/** `client.artifacts.download`: every path checked before anything is written; each file
 * written through a temp file and kept only when its MD5 matches the manifest. */
export async function downloadArtifact(
  http: HttpClient,
  refText: string,
  dir: string,
  options: RequestOptions | undefined,
  /** Refuse a version of another type (W&B's clients check the type on their side). */
  expectType?: string,
): Promise<ArtifactDownload> {
  if (!hasFileSystem) pathUnder(dir, "");
  if (typeof dir !== "string" || dir === "")
    throw new RequestValidationError(
      [{ path: "dir", message: "dir must be a directory path", code: "custom" }],
      "artifacts.download request",
    );
  const r = await resolve(http, refText, "artifacts.download", options);
  if (expectType !== undefined && r.membership.type !== expectType)
    throw new ArtifactNotFoundError(refText, ` of type ${expectType} (it is a ${r.membership.type} artifact)`);
  const targets = r.files.map((entry) => {
    if (unsafePathReason(entry.name) !== undefined) throw new UnsafeArtifactPathError(entry.name);
    const target = pathUnder(dir, entry.name);
    if (target === undefined) throw new UnsafeArtifactPathError(entry.name);
    return { entry, target };
  });
  const urls = { current: await urlsOf(http, r, options) };
  for (const { entry, target } of targets) {
    const res = await openFile(http, r, urls, entry, options);
    await writeChecked(target, res.body, (digest, size) => {
      if (digest !== entry.digest)
        throw new ArtifactDigestError(entry.name, entry.digest, digest, { expected: entry.size, actual: size });
    });
  }
  return { dir, version: `v${r.membership.versionIndex}`, files: targets.map((t) => t.entry.name) };
}
