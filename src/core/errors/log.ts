import type { Redactor } from "./secrets.js";

/** Levels from quietest to loudest. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Anything shaped like `console`: pino, winston and console itself all fit. */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Whether a string names a level (for the `INFERLOOP_LOG` variable). */
export function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && value in RANK;
}

/**
 * The SDK's internal log: checks the level before formatting anything, and passes every
 * string argument through the redactor, so a log line can never carry a credential.
 */
export class Log {
  readonly #logger: Logger;
  readonly #rank: number;
  readonly #redactor: Redactor;

  constructor(logger: Logger, level: LogLevel, redactor: Redactor) {
    this.#logger = logger;
    this.#rank = RANK[level];
    this.#redactor = redactor;
  }

  enabled(level: Exclude<LogLevel, "off">): boolean {
    return RANK[level] <= this.#rank;
  }

  write(level: Exclude<LogLevel, "off">, message: string, details?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `[inferloop] ${this.#redactor.text(message)}`;
    if (details === undefined) this.#logger[level](line);
    else this.#logger[level](line, this.#redactor.value(details));
  }
}
