import { describe, expect, it } from "vitest";
import {
  type AnnotationQueueItemProgressParams,
  annotationQueueItemProgressParamsSchema,
  pathParamSchema,
} from "../../../src/wire/annotation-queues/request-schema.js";

describe("annotationQueueItemProgressParamsSchema", () => {
  const valid: AnnotationQueueItemProgressParams[] = [
    { annotation_state: "in_progress", project_id: "acme/support-bot" },
    { annotation_state: "completed", project_id: "acme/support-bot" },
    { annotation_state: "skipped", project_id: "a/b" },
    { annotation_state: "completed", project_id: "my-team_2/Project.Name" },
  ];

  it.each(valid)("accepts %o unchanged", (input) => {
    const result = annotationQueueItemProgressParamsSchema.safeParse(input);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(input);
  });

  const ok = { annotation_state: "completed", project_id: "acme/support-bot" };
  const invalid: Array<[string, unknown, PropertyKey[]]> = [
    ["missing annotation_state", { project_id: ok.project_id }, ["annotation_state"]],
    ["unstarted (not settable)", { ...ok, annotation_state: "unstarted" }, ["annotation_state"]],
    ["unknown state", { ...ok, annotation_state: "done" }, ["annotation_state"]],
    ["state in upper case", { ...ok, annotation_state: "COMPLETED" }, ["annotation_state"]],
    ["empty state", { ...ok, annotation_state: "" }, ["annotation_state"]],
    ["state not a string", { ...ok, annotation_state: 1 }, ["annotation_state"]],
    ["missing project_id", { annotation_state: "completed" }, ["project_id"]],
    ["project_id without slash", { ...ok, project_id: "support-bot" }, ["project_id"]],
    ["project_id with two slashes", { ...ok, project_id: "acme/support/bot" }, ["project_id"]],
    ["project_id with empty entity", { ...ok, project_id: "/support-bot" }, ["project_id"]],
    ["project_id with empty project", { ...ok, project_id: "acme/" }, ["project_id"]],
    ["project_id with whitespace", { ...ok, project_id: "acme/support bot" }, ["project_id"]],
    ["project_id with a trailing newline", { ...ok, project_id: "acme/support-bot\n" }, ["project_id"]],
    ["project_id not a string", { ...ok, project_id: ["acme", "bot"] }, ["project_id"]],
    ["unknown key", { ...ok, wb_user_id: "u" }, []],
  ];

  it.each(invalid)("refuses %s", (_name, input, path) => {
    const result = annotationQueueItemProgressParamsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it("explains the allowed states and the project format", () => {
    const result = annotationQueueItemProgressParamsSchema.safeParse({
      annotation_state: "unstarted",
      project_id: "x",
    });
    const messages = result.error?.issues.map((issue) => issue.message);
    expect(messages).toContain(
      'annotation_state "unstarted" is the state Weave gives an item nobody has worked on yet, not one a client sets: set "in_progress", "completed" or "skipped"',
    );
    expect(messages).toContain('project_id must be "<entity>/<project>"');
  });
});

describe("pathParamSchema", () => {
  it.each(["0195a3cf-1a2b-7c3d-8e4f-5a6b7c8d9e0f", "q", "with space/and slash"])("accepts %j", (value) => {
    expect(pathParamSchema.parse(value)).toBe(value);
  });

  it.each([[""], [undefined], [null], [42]])("refuses %j", (value) => {
    expect(pathParamSchema.safeParse(value).success).toBe(false);
  });
});
