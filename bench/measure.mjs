// Run one child measurement and return its result (or the child's error output).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child.mjs", import.meta.url));
const CHILD_TIMEOUT_MS = 120_000; // one measurement never takes this long; a hang is killed

export function measure(contender, scenario, url) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CHILD, contender, scenario, url],
      { timeout: CHILD_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return resolve({ error: (stderr || err.message).trim().split("\n").slice(0, 6).join("\n") });
        resolve(JSON.parse(stdout.trim().split("\n").pop()));
      },
    );
  });
}
