#!/usr/bin/env node
// The `inferloop` command (package.json `bin`). Ctrl-C or SIGTERM aborts what is running (the
// requests are closed, exit 130; `inferloop fake` closes its server and exits 0); a second
// Ctrl-C exits at once.
import { runCli } from "./cli.js";

const controller = new AbortController();
const stop = () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
process.off("SIGINT", stop);
process.off("SIGTERM", stop);
process.exitCode = code;
