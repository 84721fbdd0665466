// The `inferloop` command: finds the subcommand in the table, parses its options with Node's
// `util.parseArgs`, runs it, and turns what it threw into a message and an exit code.
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { closestName } from "../core/checks/closest-name.js";
import { APIError, Inferloop, InferloopError } from "../index.js";
import type { Command, CommandContext, CommandInput, OptionSpec } from "./command.js";
import { COMMANDS } from "./commands.js";
import { EXIT, EXIT_CODE_HELP, exitCodeFor, UsageError } from "./exit-codes.js";
import { Output } from "./output.js";
import { secretRedactor } from "./secrets.js";

/** Where the command writes, and what it must keep out of what it writes. */
export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  /** The environment the client is built from (`process.env`): its secrets are never written. */
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C or SIGTERM. */
  signal: AbortSignal;
}

const COMMON_OPTIONS: Record<string, OptionSpec> = {
  json: { type: "boolean", description: "machine-readable output (JSON; JSON lines for streams of events)" },
  help: { type: "boolean", short: "h", description: "show this help" },
};

const ENVIRONMENT = `Environment (read as new Inferloop() reads it; a key is never printed):
  INFERLOOP_API_KEY, else WANDB_API_KEY   the API key (Bearer; Basic password by default)
  INFERLOOP_BASE_URL                      every service's base URL (a vLLM, the fake service)
  INFERLOOP_TRACE_BASE_URL, INFERLOOP_TRAINING_BASE_URL, INFERLOOP_WANDB_BASE_URL
                                          one service's own base URL
  INFERLOOP_USERNAME, INFERLOOP_PASSWORD  Basic auth of the trace server (default: api, the key)
  INFERLOOP_LOG                           error, warn, info or debug: the SDK's log on stderr
With no base URL at all, each service is W&B's own host.`;

function exitCodes(): string {
  return `Exit codes:\n${EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`).join("\n")}`;
}

function usageLine(command: Command): string {
  const args = (command.arguments ?? []).map((a) => (a.required === false ? `[${a.name}]` : `<${a.name}>`));
  return ["inferloop", command.name, ...args, "[options]"].join(" ");
}

function columns(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join("\n");
}

/** One line per command: its words and arguments, and what it does. */
function commandList(commands: readonly Command[]): string {
  return columns(
    commands.map((c) => [
      usageLine(c)
        .replace(/^inferloop /, "")
        .replace(/ \[options\]$/, ""),
      c.summary,
    ]),
  );
}

/** The help of the whole command: its subcommands, the environment and the exit codes. */
export function mainHelp(): string {
  return `Usage: inferloop <command> [options]

The inferloop SDK from the shell: a fake service to develop against, chat, models, a project's
calls as JSON lines, training jobs, checkpoints and artifacts.

Commands:
${commandList(COMMANDS)}

Every command takes --json (machine-readable output) and --help.
Run "inferloop <command> --help" for its arguments and options.

${ENVIRONMENT}

${exitCodes()}
`;
}

/** The help of one subcommand. */
export function commandHelp(command: Command): string {
  const args = command.arguments ?? [];
  const options = { ...command.options, ...COMMON_OPTIONS };
  const parts = [`Usage: ${usageLine(command)}`, command.description];
  if (args.length > 0) parts.push(`Arguments:\n${columns(args.map((a) => [`<${a.name}>`, a.description]))}`);
  parts.push(
    `Options:\n${columns(
      Object.entries(options).map(([name, o]) => [
        `${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` <${o.value}>` : ""}`,
        o.description,
      ]),
    )}`,
  );
  if (command.examples?.length) parts.push(`Examples:\n${command.examples.map((e) => `  ${e}`).join("\n")}`);
  parts.push(exitCodes());
  return `${parts.join("\n\n")}\n`;
}

/** The help of a group of subcommands (`inferloop checkpoints`). */
function groupHelp(group: string, members: Command[]): string {
  return `Usage: inferloop ${group} <command> [options]

Commands:
${commandList(members)}

Run "inferloop ${group} <command> --help" for its arguments and options.
`;
}

/** The command named by the leading words of `argv`, and the words that named it. */
function findCommand(argv: string[]): { command: Command | undefined; used: number; group: Command[] } {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  let best: Command | undefined;
  for (const c of COMMANDS) {
    const parts = c.name.split(" ");
    if (parts.every((p, i) => words[i] === p) && (!best || parts.length > best.name.split(" ").length)) best = c;
  }
  const group = best ? [] : COMMANDS.filter((c) => c.name.split(" ")[0] === words[0] && c.name.includes(" "));
  return { command: best, used: best ? best.name.split(" ").length : 0, group };
}

/** Reads the options of `command` from `rest`, or throws a UsageError that names the fix. */
function parseInput(command: Command, rest: string[]): CommandInput & { help: boolean } {
  const options = { ...command.options, ...COMMON_OPTIONS };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown !== undefined) {
      const close = closestName(unknown.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(
        `unknown option ${unknown}${close ? `; did you mean --${close}?` : ""} (see "inferloop ${command.name} --help")`,
      );
    }
    throw new UsageError(
      `${message.replace(/\. To specify a positional.*$/s, "")} (see "inferloop ${command.name} --help")`,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const help = values["help"] === true;
  const specs = command.arguments ?? [];
  const positionals = parsed.positionals;
  const args: Record<string, string | undefined> = {};
  if (!help) {
    if (positionals.length > specs.length)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(positionals[specs.length])}: usage is ${usageLine(command)}`,
      );
    specs.forEach((spec, i) => {
      const value = positionals[i];
      if (value === undefined && spec.required !== false)
        throw new UsageError(`missing <${spec.name}>: usage is ${usageLine(command)}`);
      args[spec.name] = value;
    });
  }
  return { args, options: values, json: values["json"] === true, help };
}

function version(): string {
  try {
    return (createRequire(import.meta.url)("inferloop/package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Prints an error the way the output mode asks, and returns its exit code. */
async function report(err: unknown, where: string, json: boolean, stderr: Output): Promise<number> {
  const code = exitCodeFor(err);
  const name = err instanceof Error ? err.name : "Error";
  const message = err instanceof Error ? err.message : String(err);
  if (json) {
    const error: Record<string, unknown> = { name, message, exitCode: code };
    if (err instanceof APIError) {
      error["status"] = err.status;
      if (err.requestId !== undefined) error["requestId"] = err.requestId;
    }
    await stderr.json({ error });
    return code;
  }
  if (err instanceof UsageError) await stderr.line(`${where}: ${message}`);
  else if (code === EXIT.unexpected && !(err instanceof InferloopError) && err instanceof Error && err.stack)
    await stderr.line(`${where}: ${err.stack}`);
  else {
    const requestId = err instanceof APIError && err.requestId ? ` (request id ${err.requestId})` : "";
    await stderr.line(`${where}: ${name}: ${message}${requestId}`);
  }
  return code;
}

/**
 * Runs `inferloop` with `argv` (the words after the command's name) and resolves to its exit
 * code. Output goes to `io.stdout` and `io.stderr`, with the environment's secrets kept out.
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const redact = secretRedactor(io.env);
  const stdout = new Output(io.stdout, redact);
  const stderr = new Output(io.stderr, redact);
  if (argv.length === 0) {
    await stderr.text(mainHelp());
    return EXIT.usage;
  }
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    await stdout.text(mainHelp());
    return EXIT.ok;
  }
  if (argv[0] === "--version" || argv[0] === "-v") {
    await stdout.line(version());
    return EXIT.ok;
  }
  const { command, used, group } = findCommand(argv);
  const json = argv.includes("--json");
  if (!command) {
    if (group.length > 0) {
      const wantsHelp = argv.includes("--help") || argv.includes("-h");
      if (wantsHelp) {
        await stdout.text(groupHelp(argv[0]!, group));
        return EXIT.ok;
      }
      const sub = argv[1];
      const names = group.map((c) => c.name.split(" ")[1]!);
      const close = sub !== undefined && !sub.startsWith("-") ? closestName(sub, names) : undefined;
      return report(
        new UsageError(
          `${sub === undefined || sub.startsWith("-") ? "needs a command" : `unknown command ${JSON.stringify(sub)}`}: one of ${names.join(", ")}${close ? `; did you mean "${argv[0]} ${close}"?` : ""}`,
        ),
        `inferloop ${argv[0]}`,
        json,
        stderr,
      );
    }
    const first = argv[0]!;
    const close = closestName(
      first,
      COMMANDS.map((c) => c.name.split(" ")[0]!),
    );
    return report(
      new UsageError(
        `unknown command ${JSON.stringify(first)}${close ? `; did you mean "${close}"?` : ""} (see "inferloop --help")`,
      ),
      "inferloop",
      json,
      stderr,
    );
  }
  let input: CommandInput & { help: boolean };
  try {
    input = parseInput(command, argv.slice(used));
  } catch (err) {
    return report(err, `inferloop ${command.name}`, json, stderr);
  }
  if (input.help) {
    await stdout.text(commandHelp(command));
    return EXIT.ok;
  }
  let client: Inferloop | undefined;
  const context: CommandContext = {
    client: () => {
      if (client) return client;
      try {
        client = new Inferloop();
      } catch (err) {
        // A setting of the environment the client refuses (a log level, a base URL): a usage error.
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      return client;
    },
    signal: io.signal,
    stdout,
    stderr,
    env: io.env,
  };
  try {
    const code = (await command.run(input, context)) ?? EXIT.ok;
    await stdout.flush();
    return code;
  } catch (err) {
    await stdout.flush();
    if (io.signal.aborted) {
      await stderr.line(`inferloop ${command.name}: interrupted`);
      return EXIT.interrupted;
    }
    return report(err, `inferloop ${command.name}`, input.json, stderr);
  }
}
