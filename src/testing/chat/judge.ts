/**
 * The fake service as a RULER judge: a request that asks for a `scores` object (a
 * `json_schema` response format whose schema has a `scores` property) about
 * `<trajectory id="N">` blocks gets a valid verdict from a fixed rule, so examples and users'
 * tests of `rulerScoreGroup` run offline and always score the same way.
 *
 * The rule: a trajectory that ends with an assistant answer in text, every tool call on the way
 * answered without error, scores 0.5 plus up to 0.5 for being as short (in characters of JSON)
 * as the shortest such one of the request, so finished and direct beats finished and
 * roundabout; one that answers after a tool call failed (a `tool` message starting with
 * `Error`, as runTools answers a call it could not run) scores 0.3; one that ends elsewhere (a
 * tool call, a tool result, a user turn) scores 0.1. A judge asked again after an unusable
 * reply answers the same way.
 *
 * @module
 */
import type { ChatParams } from "./checks.js";

const BLOCK = /<trajectory id="([^"]+)">\n([\s\S]*?)\n<\/trajectory>/g;

function asksForScores(params: ChatParams): boolean {
  const format = (params as { response_format?: unknown }).response_format as
    | { type?: unknown; json_schema?: { schema?: { properties?: Record<string, unknown> } } }
    | null
    | undefined;
  return format?.type === "json_schema" && format.json_schema?.schema?.properties?.["scores"] !== undefined;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === "object" && p !== null && typeof p.text === "string" ? p.text : ""))
      .join("");
  return "";
}

function judgedText(params: ChatParams): string | undefined {
  for (let i = params.messages.length - 1; i >= 0; i--) {
    const content = (params.messages[i] as { role?: unknown; content?: unknown }).content;
    if (typeof content === "string" && content.includes('<trajectory id="')) return content;
  }
  return undefined;
}

/**
 * The verdict's JSON text for a RULER-shaped request
 * (`{"scores":[{"trajectory_id":"1","explanation":"...","score":1}]}`), or undefined for any
 * other request.
 */
export function judgeReply(params: ChatParams): string | undefined {
  if (!asksForScores(params)) return undefined;
  const text = judgedText(params);
  if (text === undefined) return undefined;
  const blocks = [...text.matchAll(BLOCK)].map(([, id, body]) => {
    let messages: unknown = [];
    try {
      messages = JSON.parse(body!);
    } catch {
      // Not the SDK's serialization: judged as a trajectory that never answered.
    }
    const list = Array.isArray(messages)
      ? (messages as Array<{ role?: unknown; content?: unknown; tool_calls?: unknown }>)
      : [];
    const last = list.at(-1);
    const answered =
      last?.role === "assistant" &&
      typeof last.content === "string" &&
      last.content.trim() !== "" &&
      !(Array.isArray(last.tool_calls) && last.tool_calls.length > 0);
    const failed = list.filter((m) => m?.role === "tool" && /^\s*Error\b/.test(textOf(m.content))).length;
    return { id: id!, answered, failed, length: body!.length };
  });
  const shortest = Math.min(...blocks.filter((b) => b.answered && b.failed === 0).map((b) => b.length));
  const scores = blocks.map((b) => {
    if (!b.answered) return { trajectory_id: b.id, explanation: "Did not reach an answer.", score: 0.1 };
    if (b.failed > 0)
      return {
        trajectory_id: b.id,
        explanation: `Answered, but ${b.failed === 1 ? "a tool call" : `${b.failed} tool calls`} failed on the way.`,
        score: 0.3,
      };
    const score = Math.round((0.5 + (0.5 * shortest) / b.length) * 1000) / 1000;
    const explanation = `Answered; ${b.length === shortest ? "the most direct attempt" : `${b.length - shortest} characters longer than the most direct attempt`}.`;
    return { trajectory_id: b.id, explanation, score };
  });
  return JSON.stringify({ scores });
}
