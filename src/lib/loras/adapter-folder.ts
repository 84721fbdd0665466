// An adapter folder read in Node: the path of every file under it (sub-folders included, as W&B's
// `artifact.add_dir` takes them) as a file-backed Blob, hashed and sent without a copy, and the
// text of its `adapter_config.json`. The browser build has no deploy at all (lora-deploy.browser.ts).
import { openAsBlob } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { RequestValidationError } from "../../core/errors/errors.js";
import type { ArtifactFileInput } from "../../wire/artifacts/types.js";

/** What a deploy needs of the folder. */
export interface AdapterFolder {
  files: ArtifactFileInput[];
  /** `adapter_config.json`'s text; undefined when the folder has none. */
  configText: string | undefined;
}

/** Reads the folder, refusing (before anything is sent) one that is not there. */
export async function readAdapterFolder(dir: string): Promise<AdapterFolder> {
  const found = await stat(dir).catch(() => undefined);
  if (found === undefined || !found.isDirectory())
    throw new RequestValidationError(
      [
        {
          path: "dir",
          message: `${dir} is not a folder: give the folder PEFT's save_pretrained wrote`,
          code: "custom",
        },
      ],
      "loras.deploy request",
    );
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const files = await Promise.all(
    paths.map(async (path) => ({ name: relative(dir, path).split(sep).join("/"), data: await openAsBlob(path) })),
  );
  const configText = paths.includes(join(dir, "adapter_config.json"))
    ? await readFile(join(dir, "adapter_config.json"), "utf8")
    : undefined;
  return { files, configText };
}
