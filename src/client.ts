import { checkOptions } from "./core/checks/option-checks.js";
import { InferloopError } from "./core/errors/errors.js";
import { isLogLevel, Log, type LogLevel } from "./core/errors/log.js";
import { Redactor } from "./core/errors/secrets.js";
import { base64, resolveCredentials } from "./core/pipeline/auth.js";
import { resolveBaseURLs } from "./core/pipeline/base-urls.js";
import { readEnv } from "./core/pipeline/env.js";
import { checkClientHeaders } from "./core/pipeline/header-values.js";
import { HttpClient, parseBase } from "./core/pipeline/http-client.js";
import type { ClientOptions } from "./core/pipeline/options.js";
import { createDefaultTransport } from "./core/transport/default.js";
import { FetchTransport } from "./core/transport/fetch.js";
import type { Transport } from "./core/transport/types.js";
import { AnnotationQueues } from "./namespaces/annotation-queues.js";
import { Artifacts } from "./namespaces/artifacts.js";
import { Calls } from "./namespaces/calls.js";
import { Chat } from "./namespaces/chat.js";
import { Evaluations } from "./namespaces/evaluations.js";
import { Feedback } from "./namespaces/feedback.js";
import { Loras } from "./namespaces/loras.js";
import { Models } from "./namespaces/models.js";
import { SFTTrainingJobs } from "./namespaces/sft-training-jobs.js";
import { TrainableModels } from "./namespaces/trainable-models.js";
import { TrainingJobs } from "./namespaces/training-jobs.js";

const DEFAULT_TIMEOUT = 600_000;
const DEFAULT_IDLE_TIMEOUT = 120_000;
const DEFAULT_MAX_RETRIES = 2;
// Ten minutes, like `timeout`: a reasoning model streams its thinking as events, but a long
// prompt may queue and prefill for minutes before the first one, with only keep-alives meanwhile.
const DEFAULT_EVENT_TIMEOUT = 600_000;
// 512 MiB: V8 cannot hold a string much longer (2^29 - 24 characters), so no JS client could
// parse a larger value anyway; the largest real reply (prompt_logprobs over a long prompt) stays
// well under it (its size: docs/errors-and-retries.md, "Size limits").
const DEFAULT_MAX_BUFFER_BYTES = 512 * 1024 * 1024;

// Lets withOptions() hand its transport (and so its keep-alive pool) to the new client.
const sharedTransport = Symbol("sharedTransport");

/**
 * The option wins over `INFERLOOP_LOG`. Both refuse what is not a level, the same way: a
 * misspelt variable that silently meant "off" would hide the very logs it asked for.
 */
function resolveLogLevel(option: LogLevel | undefined): LogLevel {
  const [source, value] = option !== undefined ? ["`logLevel`", option] : ["INFERLOOP_LOG", readEnv("INFERLOOP_LOG")];
  if (value === undefined) return "off";
  if (!isLogLevel(value))
    throw new InferloopError(
      `${source} is "${value}", which is not a log level: use one of off, error, warn, info, debug.`,
    );
  return value;
}

/**
 * The client for the whole service: chat generation, the model list, the call query of the
 * tracing store, annotation-queue progress, RL and SFT training jobs and the trainable models
 * they update. Each service has its own base URL (`baseURL`, `traceBaseURL`, `trainingBaseURL`,
 * `wandbBaseURL`); a `baseURL` alone serves them all, and with none at all each goes to W&B's
 * host.
 *
 * @example
 * ```ts
 * import { Inferloop } from "inferloop";
 *
 * const client = new Inferloop({ baseURL: "https://api.example.com", apiKey: process.env.INFERLOOP_API_KEY });
 * const reply = await client.chat.completions.create({
 *   model: "Qwen/Qwen3-8B",
 *   messages: [{ role: "user", content: "Say hi" }],
 * });
 * console.log(reply.choices[0]?.message.content);
 * ```
 */
export class Inferloop {
  /** Chat generation, plain and streamed. */
  readonly chat: Chat;
  /** The models the service can address. */
  readonly models: Models;
  /** The call query of the tracing store. */
  readonly calls: Calls;
  /** Annotation queues and their items. */
  readonly annotationQueues: AnnotationQueues;
  /** Feedback on traced calls: reactions, notes, annotations, scores. */
  readonly feedback: Feedback;
  /** Reinforcement-learning training jobs. */
  readonly trainingJobs: TrainingJobs;
  /** Supervised fine-tuning jobs. */
  readonly sftTrainingJobs: SFTTrainingJobs;
  /** Trainable models and their checkpoints (the models RL jobs update). */
  readonly trainableModels: TrainableModels;
  /** W&B Artifacts: SFT datasets up, trained LoRA checkpoints down. */
  readonly artifacts: Artifacts;
  /** LoRA adapters served by W&B Inference: deploy one, get the model name to chat with. */
  readonly loras: Loras;
  /** Evaluations in Weave: run, read back, compare. */
  readonly evaluations: Evaluations;

  /** Inference's base URL (chat, models). */
  readonly baseURL: string;
  /** The trace server's base URL (calls, annotation queues, feedback). */
  readonly traceBaseURL: string;
  /** W&B Training's base URL (trainable models, training and SFT jobs, chat on checkpoints). */
  readonly trainingBaseURL: string;
  /** W&B's own API (GraphQL: artifacts). */
  readonly wandbBaseURL: string;
  readonly project: string | undefined;
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly eventTimeout: number;
  readonly maxBufferBytes: number;
  readonly maxRetries: number;
  readonly logLevel: LogLevel;

  // Private fields stay out of JSON.stringify and util.inspect, so the secrets in them do too.
  readonly #options: ClientOptions;
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    // The same check as every request's options: a value refused here is refused there.
    checkOptions(options, "client options");
    this.#options = { ...options };
    const bases = resolveBaseURLs(options);
    const credentials = resolveCredentials(options);
    const { apiKey, username, password } = credentials;
    const logLevel = resolveLogLevel(options.logLevel);

    this.baseURL = bases.inference.url;
    this.traceBaseURL = bases.trace.url;
    this.trainingBaseURL = bases.training.url;
    this.wandbBaseURL = bases.wandb.url;
    this.project = options.project;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT;
    this.idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
    this.eventTimeout = options.eventTimeout ?? DEFAULT_EVENT_TIMEOUT;
    this.maxBufferBytes = options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    checkClientHeaders({ apiKey, username, password, project: options.project }, options.defaultHeaders);
    this.logLevel = logLevel;

    const inherited = (options as { [sharedTransport]?: Transport })[sharedTransport];
    this.#transport =
      inherited ??
      (options.fetch ? new FetchTransport(options.fetch) : createDefaultTransport({ dispatcher: options.dispatcher }));
    const redactor = new Redactor([
      apiKey,
      password,
      ...(password ? [base64(`${username}:${password}`)] : []),
      // The `wandb` service's Basic credential: as secret as the key it encodes.
      ...(apiKey ? [base64(`api:${apiKey}`)] : []),
    ]);
    const http = new HttpClient({
      api: parseBase(bases.inference.url, bases.inference.source),
      trace: parseBase(bases.trace.url, bases.trace.source),
      training: parseBase(bases.training.url, bases.training.source),
      wandb: parseBase(bases.wandb.url, bases.wandb.source),
      credentials,
      project: options.project,
      timeout: this.timeout,
      idleTimeout: this.idleTimeout,
      eventTimeout: this.eventTimeout,
      maxBufferBytes: this.maxBufferBytes,
      maxRetries: this.maxRetries,
      defaultHeaders: options.defaultHeaders ?? {},
      extraBody: options.extraBody,
      transport: this.#transport,
      log: new Log(options.logger ?? console, logLevel, redactor),
      redactor,
      telemetry: options.telemetry,
    });

    this.chat = new Chat(http);
    this.models = new Models(http);
    this.calls = new Calls(http);
    this.annotationQueues = new AnnotationQueues(http);
    this.feedback = new Feedback(http);
    this.trainingJobs = new TrainingJobs(http);
    this.sftTrainingJobs = new SFTTrainingJobs(http);
    this.artifacts = new Artifacts(http);
    this.loras = new Loras(http);
    // Trained checkpoints are served on the Training host: a model's `chat` goes there.
    const trainingChat = new Chat(http.routedTo("training"));
    this.trainableModels = new TrainableModels(http, trainingChat);
    this.evaluations = new Evaluations(http, this.chat.completions, trainingChat.completions);
  }

  /**
   * A new client with some options changed; the rest, and the connection pool, are kept.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * ```
   */
  withOptions(overrides: ClientOptions): Inferloop {
    const next: ClientOptions & { [sharedTransport]?: Transport } = { ...this.#options, ...overrides };
    if (!("fetch" in overrides) && !("dispatcher" in overrides)) next[sharedTransport] = this.#transport;
    return newClient(next);
  }
}

// Outside the class body on purpose: esbuild emits a class that names itself inside its own body
// as `class _Inferloop`, and that is the name `console.log(client)` and stack traces would show.
// (esbuild's `keepNames` would fix the name too, but its `__name` calls keep users' bundlers from
// dropping unused code.)
function newClient(options: ClientOptions): Inferloop {
  return new Inferloop(options);
}
