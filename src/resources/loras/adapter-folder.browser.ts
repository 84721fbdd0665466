// The browser build's adapter-folder.ts: no file system to read a folder from.
import { InferloopError } from "../../core/errors.js";
import type { AdapterFolder } from "./adapter-folder.js";

export type { AdapterFolder } from "./adapter-folder.js";

/** Refused: no file system. */
export async function readAdapterFolder(_dir: string): Promise<AdapterFolder> {
  throw new InferloopError(
    "client.loras.deploy({ dir }) reads an adapter folder, which needs a file system: deploy from Node (or `npx inferloop lora deploy`), or upload the files with client.artifacts.upload.",
  );
}
