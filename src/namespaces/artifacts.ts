import { lazyIterable } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { ArtifactDownload } from "../lib/artifacts/download.js";
import type { Artifact, ArtifactFile, ArtifactUploadParams, ArtifactUploadResult } from "../wire/artifacts/types.js";

// Loaded at the first call: a page that never reads or writes artifacts does not carry W&B's
// GraphQL operations, the manifests, the MD5 code or the uploads.
const download = () => import("../lib/artifacts/download.js");
const upload = () => import("../lib/artifacts/upload.js");

/**
 * W&B Artifacts over W&B's GraphQL API (`wandbBaseURL`, Basic `api:<apiKey>`): versioned sets of
 * files such as SFT datasets and trained LoRA checkpoints. Files go to and come from the signed
 * storage URLs W&B hands out, which are sent only the headers W&B returned for them, never the
 * API key.
 *
 * @example
 * ```ts
 * const { ref } = await client.artifacts.upload({
 *   entity: "acme", project: "rl", name: "agent-sft-data", type: "dataset",
 *   files: [{ name: "train.jsonl", data: '{"messages":[{"role":"user","content":"hi"}]}\n' }],
 * });
 * await client.artifacts.download("acme/rl/agent:step3", { dir: "./agent-step3" });
 * ```
 */
export class Artifacts extends APIResource {
  /**
   * Uploads files as a new artifact version and resolves to the version W&B assigned (read back
   * after the commit). Every file's MD5 is computed first (W&B asks for it before it hands out
   * the upload URL): strings, bytes and Blobs where they are; an (async) iterable is spooled to a
   * temp file as it is hashed in Node (constant memory), gathered into a Blob in a browser.
   * Uploads are retried per file, with fresh URLs when one expires; the version is committed
   * only when every file is stored, so a failed upload leaves no version behind. When the
   * collection's latest version already has this exact content, W&B makes no new version:
   * `existing` is then true and that version is returned.
   *
   * @example
   * ```ts
   * async function* rows() { yield new TextEncoder().encode('{"messages":[]}\n'); }
   * const { version, ref } = await client.artifacts.upload({
   *   entity: "acme", project: "rl", name: "sft-data", type: "dataset", runId: trainable.run_id ?? "run-1",
   *   files: [{ name: "train.jsonl", data: rows() }], metadata: { format: "jsonl" },
   * });
   * ```
   */
  upload(params: ArtifactUploadParams, options?: RequestOptions): Promise<ArtifactUploadResult> {
    return upload().then((u) => u.uploadArtifact(this._http, params, options));
  }

  /**
   * An artifact version by `entity/project/name:alias` (`:latest` when no alias; a
   * `wandb-artifact:///` prefix is accepted): its id, version, type, aliases, metadata and files.
   *
   * @example
   * ```ts
   * const lora = await client.artifacts.retrieve("acme/rl/agent:step3");
   * console.log(lora.version, lora.type, lora.files.map((f) => f.name));
   * ```
   */
  retrieve(ref: string, options?: RequestOptions): Promise<Artifact> {
    return download().then((d) => d.retrieveArtifact(this._http, ref, options));
  }

  /**
   * The files of an artifact version, in path order, each with a body to read before asking for
   * the next. Each body's MD5 is checked as it is read: a mismatch errors the stream with
   * `ArtifactDigestError`. Works in every runtime (no file system needed).
   *
   * @example
   * ```ts
   * for await (const file of client.artifacts.files("acme/rl/sft-data:v0")) {
   *   console.log(file.name, (await new Response(file.body).text()).length);
   * }
   * ```
   */
  files(ref: string, options?: RequestOptions): AsyncIterable<ArtifactFile> {
    return lazyIterable(() => download().then((d) => d.artifactFiles(this._http, ref, options)));
  }

  /**
   * Downloads every file of an artifact version under `dir` (Node). Every path in the manifest is
   * checked before anything is written: an absolute path or a `..` segment is refused
   * (`UnsafeArtifactPathError`). Each file is written through a temp file and kept only when its
   * MD5 matches the manifest (`ArtifactDigestError` otherwise, the partial file removed).
   *
   * @example
   * ```ts
   * const { files, version } = await client.artifacts.download("acme/rl/agent:step3", { dir: "./lora" });
   * ```
   */
  download(ref: string, params: { dir: string }, options?: RequestOptions): Promise<ArtifactDownload> {
    return download().then((d) => d.downloadArtifact(this._http, ref, params?.dir, options));
  }
}
