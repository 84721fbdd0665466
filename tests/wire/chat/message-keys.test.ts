/**
 * Unknown keys inside messages: sent as written (servers accept them), except a key within two
 * edits of a key the message's role knows, which is refused with a "did you mean".
 */
import { describe, expect, it } from "vitest";
import { chatCompletionCreateParamsSchema, requestIssues } from "../../../src/wire/chat/request-schema.js";

function issuesOf(message: Record<string, unknown>) {
  const r = chatCompletionCreateParamsSchema.safeParse({ messages: [message] });
  return r.success ? [] : requestIssues(r.error.issues);
}

describe("message keys", () => {
  it.each([
    [{ role: "user", content: "hi", nmae: "bob" }, "nmae", "name"],
    [{ role: "system", content: "be brief", contnet: "x" }, "contnet", "content"],
    [{ role: "assistant", content: null, tool_cals: [] }, "tool_cals", "tool_calls"],
    [{ role: "assistant", content: "ok", reasonin: "because" }, "reasonin", "reasoning"],
    [{ role: "tool", content: "42", tool_call_id: "c1", nam: "calc" }, "nam", "name"],
    [{ role: "function", name: "f", content: "1", rol: "x" }, "rol", "role"],
  ])("refuses a misspelt key of the role: %j", (message, key, meant) => {
    const issues = issuesOf(message);
    const issue = issues.find((i) => i.path.at(-1) === key);
    expect(issue?.path).toEqual(["messages", 0, key]);
    expect(issue?.message).toContain(`did you mean "${meant}"`);
  });

  it("keeps unknown keys that are no near miss, unchanged, in the parsed request", () => {
    const message = { role: "user", content: "hi", cache_control: { type: "ephemeral" }, uuid: "m-1" };
    const r = chatCompletionCreateParamsSchema.safeParse({ messages: [message] });
    expect(r.success).toBe(true);
    expect(r.data?.messages[0]).toStrictEqual(message);
  });

  it("judges a key by the keys of the message's own role", () => {
    // `tool_call_id` is a tool message's key; on a user message it is far from role/content/name.
    expect(issuesOf({ role: "user", content: "hi", tool_call_id: "c1" })).toEqual([]);
    // The same near miss of a tool message's key is refused on a tool message.
    const issues = issuesOf({ role: "tool", content: "42", tool_call_id: "c1", tool_call_di: "c1" });
    expect(issues.map((i) => i.message).join()).toContain('did you mean "tool_call_id"');
  });

  it("reports the near miss next to the message's other problems", () => {
    const issues = issuesOf({ role: "user", content: 5, nmae: "bob" });
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        ["messages", 0, "nmae"],
        ["messages", 0, "content"],
      ]),
    );
  });
});
