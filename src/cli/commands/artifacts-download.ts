// `inferloop artifacts download <ref> <dir>`: every file of a W&B artifact version.
import { argument, type Command } from "../command.js";

export const artifactsDownload: Command = {
  name: "artifacts download",
  summary: "download a W&B artifact's files into a directory",
  description: `Downloads every file of an artifact version (entity/project/name:alias, e.g. a trained
LoRA's acme/rl/agent:step3 or a dataset's :v0) into <dir>, each file checked against the
digest of the manifest; a file outside <dir> is refused before anything is written.`,
  arguments: [
    { name: "ref", description: "entity/project/name:alias (the alias defaults to latest)" },
    { name: "dir", description: "the directory to write into (made if missing)" },
  ],
  examples: ["inferloop artifacts download acme/rl/agent:step3 ./agent-step3"],
  async run(input, { client, signal, stdout }) {
    const ref = argument(input, "ref");
    const dir = argument(input, "dir");
    const download = await client().artifacts.download(ref, { dir }, { signal });
    if (input.json) await stdout.json({ ref, ...download });
    else await stdout.line(`downloaded ${ref} (${download.version}) into ${dir}: ${download.files.join(", ")}`);
    return 0;
  },
};
