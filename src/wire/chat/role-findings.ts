/**
 * A message role that is a near miss of a known one (`usr`, `assistent`, `sytem`, `User`): vLLM
 * takes any role string and hands it to the chat template (vllm `entrypoints/chat_utils.py`,
 * CustomChatCompletionMessageParam), so such a message is sent as written, but a template that
 * knows `user` renders `usr` wrongly or not at all. It is a finding: said once per process.
 */
import { closestName } from "../../core/checks/closest-name.js";
import type { Finding } from "../../core/errors/findings.js";
import type { ChatCompletionCreateParamsBase } from "./request-schema.js";

const ROLES = ["system", "user", "assistant", "tool", "developer", "function", "custom", "generic"];
const KNOWN = new Set(ROLES);

/** The findings of a checked chat body's roles. */
export function roleFindings(body: ChatCompletionCreateParamsBase): Finding[] | undefined {
  const messages: unknown = body.messages;
  if (!Array.isArray(messages)) return undefined;
  let findings: Finding[] | undefined;
  for (const [i, message] of messages.entries()) {
    const role = (message as { role?: unknown } | null)?.role;
    if (typeof role !== "string" || KNOWN.has(role)) continue;
    const near = ROLES.find((r) => r === role.toLowerCase()) ?? closestName(role.toLowerCase(), ROLES);
    if (near === undefined) continue;
    (findings ??= []).push({
      code: "role_near_miss",
      message: `role "${role}" is not a standard role: did you mean "${near}"? It is sent as written (vLLM passes any role to the chat template, which may not know it)`,
      path: `messages.${i}.role`,
      // A loop sends the same messages again and again: one line in a log is enough.
      oncePerLog: true,
    });
  }
  return findings;
}
