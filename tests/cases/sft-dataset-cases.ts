/**
 * SFT datasets (`train.jsonl` of a `dataset` artifact) and what becomes of them, shared by the
 * SDK's tests (tests/integration/sft.test.ts: `model.trainSFT(path)` refuses before sending, or
 * uploads and trains) and the fake's (tests/testing/sft-dataset.test.ts: the raw file uploaded
 * with `client.artifacts.upload`, then `POST /v1/preview/sft-training-jobs`).
 *
 * Sources. ART-sft: OpenPipe/ART `src/art/utils/sft.py` @458eb16b83150f87a8b6c76e0f87c15fd0d133df
 * (`iterate_file` skips blank lines; `_parse_jsonl_line` is `json.loads` into a pydantic
 * `Trajectory(messages_and_choices=data.get("messages", []), tools=data.get("tools"))`;
 * `create_sft_dataset_iterator` makes `ceil(rows / batch_size)` batches; `resolve_sft_batch_size`
 * defaults to 2). ART-b3: ART's serverless backend (`_train_sft`) writes one `{messages, tools?}`
 * per line and never sends an empty dataset. W&B Training's own server is not public: `server`
 * is what ART's reader does with the file, `unknown` where it says nothing.
 */

export interface SftDatasetCase {
  name: string;
  source: string;
  /** The content of train.jsonl. */
  jsonl: string;
  /** The job's `config.batch_size` (absent: none sent). */
  batchSize?: number;
  /** What `model.trainSFT(path)` does before sending. */
  sdk: "accept" | "refuse";
  /** With `sdk: "refuse"`: the path, `{file}` standing for the file's path. */
  sdkPath?: string;
  /** What the trainer does with the file; the fake does the same (`unknown`: the fake's choice is `fake`). */
  server: "accept" | "refuse" | "unknown";
  /** The fake's answer to the SFT create: accepted with `batches` gradient steps, or a 400 naming `mentions`. */
  fake: { batches: number } | { refused: string };
}

const line = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ messages, ...extra })}\n`;
const qa = (q: string, a: string) =>
  line([
    { role: "user", content: q },
    { role: "assistant", content: a },
  ]);

export const SFT_DATASET_CASES: readonly SftDatasetCase[] = [
  {
    name: "rows as ART writes them, one with tools, one per batch",
    source: "ART-b3 line format; ART-sft batches",
    jsonl:
      qa("2+2?", "4") +
      line(
        [
          { role: "user", content: "weather?" },
          { role: "assistant", content: "sunny" },
        ],
        {
          tools: [{ type: "function", function: { name: "get_weather", parameters: {} } }],
        },
      ),
    batchSize: 1,
    sdk: "accept",
    server: "accept",
    fake: { batches: 2 },
  },
  {
    name: "three rows in batches of two make two batches",
    source: "ART-sft create_sft_dataset_iterator: ceil(dataset_size / batch_size)",
    jsonl: qa("a", "1") + qa("b", "2") + qa("c", "3"),
    batchSize: 2,
    sdk: "accept",
    server: "accept",
    fake: { batches: 2 },
  },
  {
    name: "no batch_size: batches of two",
    source: "ART-sft resolve_sft_batch_size(default_batch_size=2); what W&B picks for auto is not known",
    jsonl: qa("a", "1") + qa("b", "2") + qa("c", "3") + qa("d", "4") + qa("e", "5"),
    sdk: "accept",
    server: "unknown",
    fake: { batches: 3 },
  },
  {
    name: "blank lines are skipped",
    source: "ART-sft iterate_file: `if not line.strip(): continue`",
    jsonl: `\n${qa("a", "1")}\n   \n${qa("b", "2")}`,
    batchSize: 1,
    sdk: "accept",
    server: "accept",
    fake: { batches: 2 },
  },
  {
    name: "a line that is not JSON",
    source: "ART-sft _parse_jsonl_line: json.loads raises",
    jsonl: `${qa("a", "1")}{"messages": [\n`,
    sdk: "refuse",
    sdkPath: "rows (line 2 of {file})",
    server: "refuse",
    fake: { refused: "line 2" },
  },
  {
    name: "a line that is a JSON list",
    source: "ART-sft _parse_jsonl_line: data.get fails on a list",
    jsonl: `[${JSON.stringify({ role: "user", content: "a" })}]\n`,
    sdk: "refuse",
    sdkPath: "rows (line 1 of {file})",
    server: "refuse",
    fake: { refused: "line 1" },
  },
  {
    name: "messages that are not a list",
    source: "ART-sft: Trajectory.messages_and_choices is a list (pydantic)",
    jsonl: `${JSON.stringify({ messages: "hi" })}\n`,
    sdk: "refuse",
    sdkPath: "rows (line 1 of {file}).messages",
    server: "refuse",
    fake: { refused: "line 1: messages" },
  },
  {
    name: "a message without a role",
    source: "ART-sft: each item is a chat message param (role required) or a Choice (pydantic)",
    jsonl: line([{ content: "hello" }]),
    sdk: "refuse",
    sdkPath: "rows (line 1 of {file}).messages.0",
    server: "refuse",
    fake: { refused: "line 1: messages.0" },
  },
  {
    name: "tools that are not a list",
    source: "ART-sft: Trajectory.tools is a list or None (pydantic)",
    jsonl: line([{ role: "user", content: "a" }], { tools: { name: "t" } }),
    sdk: "refuse",
    sdkPath: "rows (line 1 of {file}).tools",
    server: "refuse",
    fake: { refused: "line 1: tools" },
  },
  {
    name: "no rows at all",
    source: "ART-b3 and ART-sft never send an empty dataset (they return first); W&B's answer is not known",
    jsonl: "\n\n",
    sdk: "refuse",
    sdkPath: "rows",
    server: "unknown",
    fake: { refused: "no rows" },
  },
  {
    name: "a row without an assistant turn",
    source:
      "ART-sft reads it (a Trajectory of one user message) and has no reply in it to learn; what W&B's trainer does with it is not known; inferloop refuses it as a conversation cut before its reply",
    jsonl: `${qa("a", "1")}${line([{ role: "user", content: "no reply" }])}`,
    batchSize: 1,
    sdk: "refuse",
    sdkPath: "rows (line 2 of {file}).messages",
    server: "unknown",
    fake: { batches: 2 },
  },
  {
    name: "a row without messages",
    source:
      "ART-sft reads it as messages [] (data.get default), a row that trains nothing; inferloop refuses it as a likely mistake",
    jsonl: `${qa("a", "1")}${JSON.stringify({ tools: [] })}\n`,
    batchSize: 1,
    sdk: "refuse",
    sdkPath: "rows (line 2 of {file}).messages",
    server: "accept",
    fake: { batches: 2 },
  },
];
