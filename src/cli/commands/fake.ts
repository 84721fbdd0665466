// `inferloop fake`: the fake service of `inferloop/testing` on a port of its own, so a loop can
// run against it, be killed and resumed, and other commands (or a second shell) can reach it.
import { type Command, intOption, stringOption } from "../command.js";

export const fake: Command = {
  name: "fake",
  summary: "run the fake service (inferloop/testing) until Ctrl-C",
  description: `Starts the fake service of inferloop/testing on loopback and prints its URL and its own
throwaway credentials (never the ones of your environment), the environment to point the SDK,
the examples and the other commands at it, and the ids it seeded. It speaks every service
(chat, models, calls, annotation queues, feedback, training, artifacts) on one base URL and
runs until Ctrl-C (SIGINT) or SIGTERM.`,
  options: {
    port: { type: "string", value: "n", description: "TCP port (default 0: any free port)" },
    host: { type: "string", value: "address", description: "interface to listen on (default 127.0.0.1)" },
    "latency-ms": { type: "string", value: "ms", description: "delay added before every answer (default 0)" },
    "training-step-ms": {
      type: "string",
      value: "ms",
      description: "time between two events of a training job, i.e. how long a step takes (default 5)",
    },
  },
  examples: [
    "inferloop fake --port 8123 --training-step-ms 300",
    "inferloop fake --json   # one line: url, apiKey, username, password and the seeded ids",
  ],
  async run(input, { signal, stdout, stderr }) {
    const port = intOption(input, "port", { max: 65_535 }) ?? 0;
    const latencyMs = intOption(input, "latency-ms");
    const trainingStepMs = intOption(input, "training-step-ms");
    const host = stringOption(input, "host");
    // Loaded here, so the other commands never load the fake service.
    const { startFakeService, SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID, DEFAULT_BASE_MODELS } = await import(
      "../../testing/index.js"
    );
    const svc = await startFakeService({
      port,
      ...(host !== undefined ? { host } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(trainingStepMs !== undefined ? { trainingStepMs } : {}),
    });
    const seeded = {
      projectId: SEED_PROJECT_ID,
      queueId: SEED_QUEUE_ID,
      itemIds: [...SEED_ITEM_IDS],
      baseModels: [...DEFAULT_BASE_MODELS],
    };
    if (input.json)
      await stdout.json({
        url: svc.url,
        port: svc.port,
        apiKey: svc.apiKey,
        username: svc.username,
        password: svc.password,
        ...seeded,
      });
    else
      await stdout.text(`inferloop fake service on ${svc.url} (Ctrl-C stops it)

Point the SDK, the examples and the inferloop command at it (the fake's own credentials):
  export INFERLOOP_BASE_URL=${svc.url}
  export INFERLOOP_API_KEY=${svc.apiKey}
Basic auth of the trace routes: username ${svc.username}, password ${svc.password}

Seeded: project ${seeded.projectId} (call records), annotation queue ${seeded.queueId}
  with items ${seeded.itemIds.join(", ")}
Base models to train: ${seeded.baseModels.join(", ")}
`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await svc.close();
    if (!input.json) await stderr.line("inferloop fake: stopped");
    return 0;
  },
};
