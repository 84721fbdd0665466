/**
 * Where each service lives: its base URL and the option or environment variable it came from
 * (for messages that say what to change).
 *
 * @module
 */
import { readEnv } from "./env.js";
import type { Service } from "./request-spec.js";

/**
 * W&B's host for each service, used when no base URL is given at all: `new Inferloop()` with
 * `WANDB_API_KEY` set reaches all of W&B. Paths carry their own `/v1`, so these are roots.
 */
const WANDB_HOSTS: Readonly<Record<Service, string>> = {
  inference: "https://api.inference.wandb.ai",
  trace: "https://trace.wandb.ai",
  training: "https://api.training.wandb.ai",
  wandb: "https://api.wandb.ai",
};

/** A service's base URL and where it came from. */
export interface ResolvedBase {
  url: string;
  /** The option, environment variable or default it came from. */
  source: string;
}

const OPTION: Readonly<Record<Service, "baseURL" | "traceBaseURL" | "trainingBaseURL" | "wandbBaseURL">> = {
  inference: "baseURL",
  trace: "traceBaseURL",
  training: "trainingBaseURL",
  wandb: "wandbBaseURL",
};

const ENV: Readonly<Record<Service, string>> = {
  inference: "INFERLOOP_BASE_URL",
  trace: "INFERLOOP_TRACE_BASE_URL",
  training: "INFERLOOP_TRAINING_BASE_URL",
  wandb: "INFERLOOP_WANDB_BASE_URL",
};

/** The base-URL options of the client. */
export interface BaseURLOptions {
  baseURL?: string | undefined;
  traceBaseURL?: string | undefined;
  trainingBaseURL?: string | undefined;
  wandbBaseURL?: string | undefined;
}

/**
 * Each service's base URL. Options beat the environment, and at each level the service's own
 * setting beats `baseURL`: its option, then the `baseURL` option, then its environment
 * variable, then `INFERLOOP_BASE_URL`, then W&B's host. So a `baseURL` alone (a vLLM, the
 * fake) serves every service even where the environment names W&B's hosts.
 */
export function resolveBaseURLs(options: BaseURLOptions): Record<Service, ResolvedBase> {
  const general = readEnv(ENV.inference);
  const resolve = (service: Service): ResolvedBase => {
    const own = OPTION[service];
    const candidates: Array<[string | undefined, string]> = [
      [options[own], own],
      [options.baseURL, "baseURL"],
      [service === "inference" ? undefined : readEnv(ENV[service]), ENV[service]],
      [general, ENV.inference],
    ];
    for (const [url, source] of candidates) if (url) return { url, source };
    return { url: WANDB_HOSTS[service], source: own };
  };
  return {
    inference: resolve("inference"),
    trace: resolve("trace"),
    training: resolve("training"),
    wandb: resolve("wandb"),
  };
}
