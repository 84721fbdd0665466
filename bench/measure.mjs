// Run one child measurement and return its result (or the child's error output).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child.mjs", import.meta.url));
const CHILD_TIMEOUT_MS = 120_000; // one measurement never takes this long; a hang is killed

/** `child` and `timeoutMs` let other benches run their own child script the same way. */
export function measure(contender, scenario, url, { child = CHILD, timeoutMs = CHILD_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [child, contender, scenario, url],
      { timeout: timeoutMs, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return resolve({ error: (stderr || err.message).trim().split("\n").slice(0, 6).join("\n") });
        resolve(JSON.parse(stdout.trim().split("\n").pop()));
      },
    );
  });
}

/** Measure once and file the result under `samples[scenario][contender]` (or in `errors`),
 * with a progress line on stderr. */
export async function measureInto(samples, errors, round, contender, scenario, url, options) {
  const r = await measure(contender, scenario, url, options);
  if (r.error) errors.push(`${contender} ${scenario}: ${r.error}`);
  else ((samples[scenario] ??= {})[contender] ??= []).push({ ...r, round });
  process.stderr.write(
    `round ${round + 1} ${scenario.padEnd(20)} ${contender.padEnd(10)} ${r.error ? "ERROR" : `${r.ms.toFixed(0)} ms`}\n`,
  );
}
