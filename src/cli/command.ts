// What a subcommand of `inferloop` declares: its words, its arguments and options (read by
// Node's `util.parseArgs`), its help, and what it runs. The table of them is `commands.ts`.
import type { Inferloop } from "../index.js";
import { UsageError } from "./exit-codes.js";
import type { Output } from "./output.js";

/** An option of a command: `--name <value>` (`string`) or a flag (`boolean`). */
export interface OptionSpec {
  type: "string" | "boolean";
  /** What the value is, in the help: `--keep-latest <n>`. */
  value?: string;
  description: string;
  short?: string;
}

/** A positional argument, in order. */
export interface ArgumentSpec {
  name: string;
  description: string;
  /** Default true. */
  required?: boolean;
}

/** The parsed command line a command runs with. */
export interface CommandInput {
  /** Positionals by the names of `Command.arguments`. */
  args: Record<string, string | undefined>;
  /** Options by their long names (`"keep-latest"`). */
  options: Record<string, string | boolean | undefined>;
  /** `--json`: machine-readable output. */
  json: boolean;
}

/** What a command can use besides its input. */
export interface CommandContext {
  /** The client, built from the environment exactly as `new Inferloop()` reads it. */
  client(): Inferloop;
  /** Aborted by Ctrl-C (SIGINT) or SIGTERM: pass it to every request. */
  signal: AbortSignal;
  stdout: Output;
  stderr: Output;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * One subcommand. `name` is its words (`"checkpoints prune"`); adding one is a file that
 * exports a `Command` and a row in `commands.ts`.
 */
export interface Command {
  name: string;
  /** One line, for the list of commands. */
  summary: string;
  /** Paragraphs for its own `--help`, after the usage line. */
  description: string;
  arguments?: ArgumentSpec[];
  options?: Record<string, OptionSpec>;
  /** Lines of examples for its `--help`. */
  examples?: string[];
  /** Resolves to the exit code (default 0). */
  run(input: CommandInput, context: CommandContext): Promise<number | undefined>;
}

/** An option's value as a whole number within bounds, or `undefined` when absent. */
export function intOption(
  input: CommandInput,
  name: string,
  bounds: { min?: number; max?: number } = {},
): number | undefined {
  const raw = input.options[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = bounds;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(
      `--${name} must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` >= ${min}` : ` from ${min} to ${max}`}, got ${JSON.stringify(raw)}`,
    );
  return value;
}

/** A string option's value, or `undefined` when absent. */
export function stringOption(input: CommandInput, name: string): string | undefined {
  const raw = input.options[name];
  return typeof raw === "string" ? raw : undefined;
}

/** A string option that must be given. */
export function requiredOption(input: CommandInput, name: string, example: string): string {
  const value = stringOption(input, name);
  if (value === undefined || value === "") throw new UsageError(`--${name} is required, e.g. --${name} ${example}`);
  return value;
}

/** A positional that `Command.arguments` marks required (the runner has checked it is there). */
export function argument(input: CommandInput, name: string): string {
  const value = input.args[name];
  if (value === undefined) throw new UsageError(`<${name}> is missing`);
  return value;
}
