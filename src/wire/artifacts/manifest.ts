/**
 * The artifact manifest (`wandb_manifest.json`, wandb/wandb `core/pkg/artifacts/manifest.go`): written for an
 * upload, read for a download. Readers ignore keys they do not know (W&B's Go and Python
 * clients write different optional ones).
 */

import { isObject } from "../../core/decoding/response-checks.js";
import { ResponseParseError } from "../../core/errors/errors.js";
import type { ArtifactFileEntry } from "./types.js";

/** A manifest entry as written: the file's digest, size and the artifact that stored it. */
export interface ManifestEntryOut extends ArtifactFileEntry {
  birthArtifactId: string;
}

/** The manifest's bytes for an upload (V2 storage layout, as W&B's clients use), with the
 * storage region beside the layout when one is asked for (wandb `core/pkg/artifacts/manifest.go`). */
export function manifestBytes(entries: readonly ManifestEntryOut[], storageRegion?: string): Uint8Array {
  const contents: Record<string, unknown> = {};
  for (const e of entries) contents[e.name] = { digest: e.digest, size: e.size, birthArtifactID: e.birthArtifactId };
  const manifest = {
    version: 1,
    storagePolicy: "wandb-storage-policy-v1",
    storagePolicyConfig: storageRegion === undefined ? { storageLayout: "V2" } : { storageLayout: "V2", storageRegion },
    contents,
  };
  return new TextEncoder().encode(JSON.stringify(manifest));
}

/** The files a downloaded manifest lists, sorted by path; reference entries (`ref`) are skipped
 * (their content lives elsewhere, not in W&B's storage). */
export function manifestFiles(text: string): ArtifactFileEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ResponseParseError("The artifact's manifest is not JSON.");
  }
  if (!isObject(parsed) || !isObject(parsed.contents))
    throw new ResponseParseError("The artifact's manifest has no `contents` object.");
  const out: ArtifactFileEntry[] = [];
  for (const [name, entry] of Object.entries(parsed.contents)) {
    if (!isObject(entry)) throw new ResponseParseError(`The manifest entry ${JSON.stringify(name)} is not an object.`);
    if (typeof entry.ref === "string") continue;
    if (typeof entry.digest !== "string")
      throw new ResponseParseError(`The manifest entry ${JSON.stringify(name)} has no digest.`);
    out.push({ name, digest: entry.digest, size: typeof entry.size === "number" ? entry.size : -1 });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
