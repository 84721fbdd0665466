/**
 * Shared by the examples: "the fake service, unless the environment names a real one".
 *
 * - INFERLOOP_BASE_URL unset: starts `inferloop/testing`'s fake service on loopback and points
 *   a client at it, with the fake's seeded project, annotation queue and items.
 * - INFERLOOP_BASE_URL set: a client built from the environment (INFERLOOP_API_KEY,
 *   INFERLOOP_USERNAME, INFERLOOP_PASSWORD, ...). The ids the fake would have seeded come from
 *   `--name=value` arguments or environment variables instead (see `SETTINGS`).
 *
 * Examples import the SDK from the source tree so they run from a fresh clone without a build;
 * in your own code, import from "inferloop" and "inferloop/testing".
 */
import { type ClientOptions, Inferloop } from "../src/index.js";
import {
  type FakeService,
  SEED_ITEM_IDS,
  SEED_PROJECT_ID,
  SEED_QUEUE_ID,
  startFakeService,
} from "../src/testing/index.js";

/** Where each id comes from against a real service: `--arg=value`, else the variable. */
const SETTINGS = {
  model: { arg: "model", env: "INFERLOOP_MODEL" },
  projectId: { arg: "project", env: "INFERLOOP_PROJECT_ID" },
  queueId: { arg: "queue", env: "INFERLOOP_QUEUE_ID" },
  itemId: { arg: "item", env: "INFERLOOP_ITEM_ID" },
  trainingModelId: { arg: "training-model", env: "INFERLOOP_TRAINING_MODEL_ID" },
  trainingProject: { arg: "training-project", env: "INFERLOOP_TRAINING_PROJECT" },
  baseModel: { arg: "base-model", env: "INFERLOOP_BASE_MODEL" },
} as const;

type SettingName = keyof typeof SETTINGS;

/** A model the fake service serves. */
export const FAKE_MODEL = "Qwen/Qwen3-8B";
/** Any UUID is a valid `model_id` for the fake service. */
export const FAKE_TRAINING_MODEL_ID = "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11";

export interface ExampleService {
  client: Inferloop;
  /** The fake service, or undefined when running against INFERLOOP_BASE_URL. */
  fake: FakeService | undefined;
  /** Where the client points, for the opening line of an example. */
  description: string;
  /** A chat model. */
  model: string;
  /** `<entity>/<project>` of the call records and the annotation queue. */
  projectId: string | undefined;
  queueId: string | undefined;
  itemId: string | undefined;
  /** A UUID for `trainingJobs.create`. */
  trainingModelId: string | undefined;
  close(): Promise<void>;
}

function argument(name: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--${name}`) return args[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** A setting from `--arg=value` or its environment variable (undefined when unset or empty). */
export function setting(name: SettingName): string | undefined {
  const { arg, env } = SETTINGS[name];
  const value = argument(arg) ?? process.env[env];
  return value === "" ? undefined : value;
}

/** The base model the fake service trains. */
export const FAKE_BASE_MODEL = "OpenPipe/Qwen3-14B-Instruct";

/**
 * Where an example trains: `--training-project` and `--base-model` (or their environment
 * variables), else on the fake service `fakeProject` and its base model; undefined against a
 * real service without them.
 */
export function trainingTarget(
  fake: FakeService | undefined,
  fakeProject: string,
): { project: string; baseModel: string } | undefined {
  const project = setting("trainingProject") ?? (fake ? fakeProject : undefined);
  const baseModel = setting("baseModel") ?? (fake ? FAKE_BASE_MODEL : undefined);
  return project && baseModel ? { project, baseModel } : undefined;
}

/** How to supply a setting, for "skipped" messages. */
export function howToSet(name: SettingName): string {
  const { arg, env } = SETTINGS[name];
  return `pass --${arg}=... or set ${env}`;
}

/** Whether INFERLOOP_BASE_URL names a real service. */
export function usingRealService(): boolean {
  return Boolean(process.env.INFERLOOP_BASE_URL);
}

/**
 * Opens the service for an example. `options` are passed to `new Inferloop` (e.g. `logLevel`);
 * always `await service.close()` at the end (the fake's port stays open until then).
 */
export async function openService(options: ClientOptions = {}): Promise<ExampleService> {
  if (usingRealService()) {
    const client = new Inferloop(options);
    return {
      client,
      fake: undefined,
      description: `the service at ${client.baseURL}`,
      model: setting("model") ?? FAKE_MODEL,
      projectId: setting("projectId"),
      queueId: setting("queueId"),
      itemId: setting("itemId"),
      trainingModelId: setting("trainingModelId"),
      close: async () => {},
    };
  }
  const fake = await startFakeService();
  const client = new Inferloop({
    baseURL: fake.url,
    apiKey: fake.apiKey,
    username: fake.username,
    password: fake.password,
    ...options,
  });
  return {
    client,
    fake,
    description: `the built-in fake service at ${fake.url}`,
    model: FAKE_MODEL,
    projectId: SEED_PROJECT_ID,
    queueId: SEED_QUEUE_ID,
    itemId: SEED_ITEM_IDS[0],
    trainingModelId: FAKE_TRAINING_MODEL_ID,
    close: () => fake.close(),
  };
}

/**
 * Runs an example's body with a service and always closes it. Any error is printed and sets
 * exit code 1, so a broken example never passes quietly.
 */
export async function runExample(
  body: (service: ExampleService) => Promise<void>,
  options: ClientOptions = {},
): Promise<void> {
  const service = await openService(options);
  try {
    await body(service);
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    await service.close();
  }
}
