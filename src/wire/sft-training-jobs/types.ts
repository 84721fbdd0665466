// One line of an SFT dataset's `train.jsonl`, as ART's serverless backend writes it
// (OpenPipe/ART `src/art/serverless/backend.py`, `_train_sft`: `{"messages": [...]}` plus
// `"tools"` when the row has them) and its reader takes it back (`src/art/utils/sft.py`,
// `_parse_jsonl_line`).
import type { ChatCompletionMessageParam } from "../chat/message-schemas.js";

/**
 * A message of an SFT row: any chat message the SDK sends, or any object with a string `role`
 * (a row read from JSON).
 */
export type SFTMessage = ChatCompletionMessageParam | { role: string; [key: string]: unknown };

/**
 * One SFT example as ART writes it: the conversation (its assistant turns are what is
 * trained), and the tools it could call.
 */
export interface SFTRow {
  messages: SFTMessage[];
  tools?: unknown[] | null;
}
