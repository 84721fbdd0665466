/** Shared setup of the integration tests: the real client, default (undici) transport, real HTTP on loopback. */
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type ClientOptions, Inferloop } from "../../src/index.js";
import { type FakeService, type FakeServiceOptions, startFakeService } from "../../src/testing/index.js";

/** A client pointed at `svc` with its credentials; no `fetch`, so the undici transport is used. */
export function clientFor(svc: FakeService, options: ClientOptions = {}): Inferloop {
  return new Inferloop({
    baseURL: svc.url,
    apiKey: svc.apiKey,
    username: svc.username,
    password: svc.password,
    maxRetries: 0,
    ...options,
  });
}

/** The fake service of a test file and a client for it, read inside tests and hooks. */
export interface FakeServiceHandle {
  readonly svc: FakeService;
  readonly client: Inferloop;
}

/**
 * One fake service for the whole test file (or `describe` block), reset before each test and
 * closed after the last, with a client for it (`clientFor(svc, clientOptions)`):
 * `const fake = useFakeService({ seedCalls: false })`, then `fake.svc` and `fake.client` inside
 * tests. Both exist once the service is up, so reading them outside a test or hook throws.
 */
export function useFakeService(options: FakeServiceOptions = {}, clientOptions: ClientOptions = {}): FakeServiceHandle {
  let started: { svc: FakeService; client: Inferloop } | undefined;
  const get = (): { svc: FakeService; client: Inferloop } => {
    if (started === undefined)
      throw new Error("the fake service starts in beforeAll: read fake.svc and fake.client in tests");
    return started;
  };
  beforeAll(async () => {
    const svc = await startFakeService(options);
    started = { svc, client: clientFor(svc, clientOptions) };
  });
  afterAll(async () => {
    await started?.svc.close();
  });
  beforeEach(() => started?.svc.reset());
  return {
    get svc() {
      return get().svc;
    },
    get client() {
      return get().client;
    },
  };
}

/** Runs `fn` and returns what it threw (fails when it did not throw). */
export async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection, but it resolved");
}

/** Open TCP sockets of this process (client and server sides alike). */
export function openSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
}

/** The open-socket count once sockets closed by earlier tests have finished closing. */
export async function settledSockets(): Promise<number> {
  let last = openSockets();
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 30));
    const now = openSockets();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Polls `check` until it holds or `ms` pass; returns whether it held. Never asserts a duration. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/** A loopback port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const MODEL = "Qwen/Qwen3-8B";
/** A model id as training jobs take it (a UUID). */
export const MODEL_ID = "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11";

/**
 * Uploads a one-row SFT dataset (`train.jsonl`) where `ref` (`wandb-artifact:///e/p/name:v0`)
 * points, as `model.trainSFT` would: W&B Training refuses an SFT job whose dataset it cannot read.
 */
export async function seedDataset(client: Inferloop, ref: string): Promise<void> {
  const [, entity, project, name] = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+):/.exec(
    ref,
  ) as unknown as string[];
  const row = {
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ],
  };
  await client.artifacts.upload({
    entity: entity!,
    project: project!,
    name: name!,
    type: "dataset",
    files: [{ name: "train.jsonl", data: `${JSON.stringify(row)}\n` }],
  });
}
