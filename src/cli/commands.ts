// The subcommands of `inferloop`, in the order `--help` lists them. A new subcommand is a file
// in `commands/` that exports a `Command`, and one row here.
import type { Command } from "./command.js";
import { artifactsDownload } from "./commands/artifacts-download.js";
import { callsExport } from "./commands/calls-export.js";
import { chat } from "./commands/chat.js";
import { checkpointsDownload, checkpointsList, checkpointsPrune } from "./commands/checkpoints.js";
import { fake } from "./commands/fake.js";
import { jobsFollow } from "./commands/jobs-follow.js";
import { loraDeploy } from "./commands/lora-deploy.js";
import { models } from "./commands/models.js";

export const COMMANDS: readonly Command[] = [
  fake,
  models,
  chat,
  callsExport,
  jobsFollow,
  checkpointsList,
  checkpointsPrune,
  checkpointsDownload,
  artifactsDownload,
  loraDeploy,
];
