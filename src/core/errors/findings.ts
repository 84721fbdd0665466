/**
 * The one rule for findings that do not throw (an ignored `svc_*` filter, a bare op name, a
 * training job's uniform rewards...), {@link warnFindings}: a client whose log takes `warn`
 * (a `logLevel` of `warn` or louder) gets each one in its logger, where its user asked for
 * them; otherwise, at the default level too, the user sees each kind once per process
 * through `process.emitWarning` where the runtime has it (type `InferloopWarning`, a code per
 * kind: Node prints it on stderr, `process.on("warning")` receives it), else `console.warn`;
 * never both.
 *
 * To silence them: `node --disable-warning=InferloopWarning` (all of them) or
 * `--disable-warning=INFERLOOP_UNIFORM_REWARDS` (one kind), also through `NODE_OPTIONS`;
 * `--no-warnings` silences every warning of the process.
 *
 * @module
 */

import type { Log } from "./log.js";

const warned = new Set<string>();

/**
 * Emits `message` once per process for `code`; later calls with the same code do nothing.
 */
export function warnOnce(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  const proc = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } }).process;
  if (typeof proc?.emitWarning === "function") proc.emitWarning(message, { type: "InferloopWarning", code });
  else console.warn(`InferloopWarning: ${message}`);
}

/**
 * One mistake that cannot throw. `path` is where in the request it sits
 * (`trajectory_groups.0.trajectories.3`); findings of one `code` and `message` are said as one
 * line naming the first paths.
 */
export interface Finding {
  code: string;
  message: string;
  path?: string | undefined;
  /**
   * Said in a client's log once rather than on every request (a hint that every query of the
   * same kind repeats); the per-process rule applies to every finding anyway.
   */
  oncePerLog?: boolean;
}

const SHOWN_PATHS = 3;
// Per log, the codes of findings said once there (see Finding.oncePerLog).
const saidInLog = new WeakMap<Log, Set<string>>();

const codeOf = (f: Finding) => `INFERLOOP_${f.code.toUpperCase()}`;

function line(source: string, first: Finding, paths: readonly (string | undefined)[], count: number): string {
  const shown = paths.filter((p) => p !== undefined).slice(0, SHOWN_PATHS);
  if (shown.length === 0) return `${source}: ${first.message}`;
  const more = count > shown.length ? ` and ${count - shown.length} more` : "";
  return `${source}: ${first.message} [${first.code} at ${shown.join(", ")}${more}]`;
}

/**
 * Says the findings of one request by the findings rule (see the module comment), `source` (the
 * operation) first on each line. In a log, one line per code and message, so 64 flat groups
 * make one line, not 64, and each line quotes its own findings' message; once per process
 * otherwise, one line per code.
 */
export function warnFindings(log: Log, source: string, findings: readonly Finding[] | undefined): void {
  if (findings === undefined || findings.length === 0) return;
  const toLog = log.enabled("warn");
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = toLog ? `${f.code} ${f.message}` : f.code;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [f]);
    else group.push(f);
  }
  for (const group of groups.values()) {
    const first = group[0]!;
    const text = line(
      source,
      first,
      group.map((f) => f.path),
      group.length,
    );
    if (!toLog) {
      warnOnce(codeOf(first), text);
      continue;
    }
    if (first.oncePerLog) {
      let said = saidInLog.get(log);
      if (said === undefined) saidInLog.set(log, (said = new Set()));
      if (said.has(first.code)) continue;
      said.add(first.code);
    }
    log.write("warn", text);
  }
}
