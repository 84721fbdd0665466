/**
 * One file of an upload: its path inside the artifact and its content. An (async) iterable is
 * read once: it is hashed into a temp file (Node) or a Blob (browsers) before anything is sent,
 * since W&B asks for every file's MD5 before it hands out the upload URL.
 */
export interface ArtifactFileInput {
  /** The path inside the artifact (`train.jsonl`, `adapter/config.json`): relative, no `..`. */
  name: string;
  data: string | Uint8Array | Blob | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
}

/**
 * The parameters of `client.artifacts.upload`.
 */
export interface ArtifactUploadParams {
  entity: string;
  project: string;
  /** The artifact's (collection's) name: at most 128 characters, no `/`. */
  name: string;
  /** `dataset`, `lora`, `model`...: no `/` or `:`, not starting with `wandb-` (reserved). */
  type: string;
  files: ArtifactFileInput[];
  /** The id of the W&B run that logs the artifact (its output). */
  runId?: string;
  /** Aliases besides `latest` (always added, as W&B's clients do) and the `vN` W&B assigns. */
  aliases?: string[];
  /** JSON metadata shown with the artifact. */
  metadata?: Record<string, unknown>;
  description?: string;
  /**
   * The W&B storage region to keep the files in (`coreweave-us`: W&B Inference serves LoRA
   * adapters from there). Sent as W&B's own clients send it: in `createArtifact`'s input and in
   * the manifest's `storagePolicyConfig`, beside `storageLayout` (wandb `core/pkg/artifacts/saver.go`
   * and `manifest.go`). Left out: W&B's default region.
   */
  storageRegion?: string;
  /**
   * When files go to storage in parts, as W&B's clients send big files (one PUT is capped by
   * object stores: S3 at 5 GiB): files of `threshold` bytes or more (default 2 GiB, W&B's),
   * in parts of `partSize` bytes (default 100 MiB, W&B's; 5 MiB to 5 GiB, S3's bounds). The
   * browser build sends every file in one PUT and ignores this.
   */
  multipart?: { threshold?: number; partSize?: number };
}

/**
 * What `client.artifacts.upload` resolves to: the committed version W&B assigned.
 */
export interface ArtifactUploadResult {
  id: string;
  /** `v0`, `v1`, ...: the version W&B assigned, read back after the commit. */
  version: string;
  /** The artifact's digest (hex MD5 over its files' digests). */
  digest: string;
  /** `wandb-artifact:///{entity}/{project}/{name}:{version}`, as Training takes it. */
  ref: string;
  /** True when W&B already had this exact content as the collection's latest version: no new
   * version was made and nothing was uploaded. */
  existing: boolean;
}

/**
 * One file of a stored artifact, as its manifest lists it.
 */
export interface ArtifactFileEntry {
  name: string;
  size: number;
  /** Base64 MD5 of the content. */
  digest: string;
}

/**
 * What `client.artifacts.retrieve` resolves to.
 */
export interface Artifact {
  id: string;
  entity: string;
  project: string;
  name: string;
  version: string;
  digest: string;
  type: string;
  aliases: string[];
  state: string;
  metadata: Record<string, unknown> | null;
  files: ArtifactFileEntry[];
}

/**
 * A file as `client.artifacts.files` yields it: read `body` before asking for the next one.
 */
export interface ArtifactFile {
  name: string;
  size: number;
  digest: string;
  /** The content; its digest is checked as it is read (a mismatch errors the stream). */
  body: ReadableStream<Uint8Array>;
}
