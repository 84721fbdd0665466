import { type RulerOptions, ruler } from "../rewards/ruler.js";
import { rowMessages } from "./run.js";
import type { EvaluationRow, Scorer } from "./types.js";

/**
 * A scorer that asks an LLM judge with RULER (`ruler`): the judge reads the row's conversation
 * (its `messages`, or its `prompt`) followed by the model's reply, and grades it between 0 and
 * 1 by the rubric (give one that says what a good answer is: alone, RULER has no other attempt
 * to compare with). Its summary is the mean grade. A judge that cannot be read twice over fails
 * that row's score (`JudgeError`), recorded on the row.
 *
 * @example
 * ```ts
 * const judged = await client.evaluations.run({
 *   project_id: "acme/agents",
 *   name: "support-answers",
 *   dataset: [{ prompt: "How do I reset my password?" }],
 *   model: "Qwen/Qwen3-8B",
 *   scorers: {
 *     judge: rulerScorer({
 *       client,
 *       model: "Qwen/Qwen3-235B-A22B-Instruct-2507",
 *       rubric: "- A correct, complete answer scores 1; a wrong one 0.",
 *     }),
 *   },
 * });
 * ```
 */
export function rulerScorer<Row extends EvaluationRow = EvaluationRow>(
  options: Omit<RulerOptions, "signal">,
): Scorer<Row, unknown> {
  return async ({ row, output, signal }) => {
    const reply = typeof output === "string" ? output : JSON.stringify(output);
    const trajectory = {
      messages_and_choices: [...(rowMessages(row) ?? []), { role: "assistant" as const, content: reply }],
    };
    const [score] = await ruler([trajectory], { ...options, signal });
    return score!.score;
  };
}
