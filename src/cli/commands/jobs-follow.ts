// `inferloop jobs follow <id>`: a training job's events as they happen, until it ends.
import { type TrainingJobEvent, TrainingJobFailedError } from "../../index.js";
import { argument, type Command, intOption, stringOption } from "../command.js";

function describe(event: TrainingJobEvent): string {
  const data = Object.entries(event.data ?? {})
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  return `${event.type}${data ? `  ${data}` : ""}  (event ${event.id})`;
}

export const jobsFollow: Command = {
  name: "jobs follow",
  summary: "print a training job's events until it ends",
  description: `Polls the job's events (GET /v1/preview/training-jobs/{id}/events) and prints each one as it
arrives, until training_ended (exit 0) or training_failed (exit 6). Transient failures are
ridden out from the last event seen. With --json, one event per line as the server sent it.
Stopped, it re-attaches where it left off with --after <last event id>.`,
  arguments: [{ name: "job-id", description: "the training job's id" }],
  options: {
    after: { type: "string", value: "event-id", description: "start after this event (re-attach)" },
    "poll-interval": { type: "string", value: "ms", description: "time between polls (default 1000)" },
    timeout: { type: "string", value: "ms", description: "give up after this long (the job keeps running)" },
  },
  examples: [
    "inferloop jobs follow 0f7c...",
    "inferloop jobs follow 0f7c... --json | jq -c 'select(.type == \"gradient_step\")'",
  ],
  async run(input, { client, signal, stdout }) {
    const jobId = argument(input, "job-id");
    const after = stringOption(input, "after");
    const pollInterval = intOption(input, "poll-interval", { min: 1 });
    const timeout = intOption(input, "timeout", { min: 1 });
    const events = client().trainingJobs.follow(jobId, { after, pollInterval, timeout, signal });
    const print = (event: TrainingJobEvent) => (input.json ? stdout.json(event) : stdout.line(describe(event)));
    try {
      for await (const event of events) await print(event);
    } catch (err) {
      // The failing event is an event of the job too: printed like the others, then exit 6.
      if (err instanceof TrainingJobFailedError) await print(err.event);
      throw err;
    }
    return 0;
  },
};
