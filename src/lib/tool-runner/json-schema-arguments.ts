/**
 * Checks a tool's arguments against a plain JSON Schema with `@cfworker/json-schema`: it
 * interprets the schema (no code generation, so it runs where `new Function` is refused:
 * workerd, strict CSP) on every runtime the SDK supports. It is loaded on a tool's first call,
 * so a bundle that never runs a JSON Schema tool does not carry it.
 *
 * @module
 */
import type { StandardValidationResult } from "../structured-output/standard-response-format.js";

type Unit = { keyword: string; keywordLocation: string; instanceLocation: string; error: string };
type Check = (value: unknown) => { valid: boolean; errors: Unit[] };

// Keywords whose failure says more than the failures of the subschemas under them.
const SUMMARIES = new Set(["anyOf", "oneOf", "not", "additionalProperties", "unevaluatedProperties", "propertyNames"]);

function draftOf(schema: Record<string, unknown>): "4" | "7" | "2019-09" | "2020-12" {
  const uri = typeof schema["$schema"] === "string" ? schema["$schema"] : "";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-06") || uri.includes("draft-07")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

// "#/a/0/b~1c" -> ["a", 0, "b/c"]
function pathOf(instanceLocation: string): PropertyKey[] {
  return instanceLocation
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/**
 * The failures worth telling the model: the innermost ones, except under `anyOf`, `oneOf`,
 * `not` and the property-wide keywords, where the keyword's own failure is the clearer one.
 */
function argumentIssues(errors: readonly Unit[]): Array<{ message: string; path: PropertyKey[] }> {
  const under = (e: Unit, parent: Unit) => e !== parent && e.keywordLocation.startsWith(`${parent.keywordLocation}/`);
  // A property refused by `additionalProperties: false` comes twice: the keyword's failure says which.
  const extra = (e: Unit) =>
    e.keyword === "false" &&
    errors.some(
      (p) =>
        (p.keyword === "additionalProperties" || p.keyword === "unevaluatedProperties") &&
        e.instanceLocation.startsWith(`${p.instanceLocation}/`),
    );
  const summary = (e: Unit) =>
    errors
      .filter((p) => SUMMARIES.has(p.keyword) && under(e, p))
      .sort((a, b) => a.keywordLocation.length - b.keywordLocation.length)[0];
  const kept = new Set<Unit>();
  for (const e of errors) {
    if (extra(e)) continue;
    if (errors.some((child) => under(child, e)) && !SUMMARIES.has(e.keyword)) continue;
    kept.add(summary(e) ?? e);
  }
  return [...kept].map((e) => {
    let message = e.error.replace(/\.$/, "").replace(/\s+/g, " ");
    // The library words an exclusive bound's failure as a plain one ("0 is less than 0").
    if (e.keyword === "exclusiveMinimum") message = message.replace(" is less than ", " is less than or equal to ");
    if (e.keyword === "false") message = "not allowed here";
    return { message, path: pathOf(e.instanceLocation) };
  });
}

/**
 * A tool's `validate` for a plain JSON Schema: the arguments as they are, or the schema's
 * issues, each with the path of the argument it is about.
 *
 * @example
 * ```ts
 * const validate = jsonSchemaArguments("calc", { type: "object", properties: { op: { enum: ["+", "-"] } } });
 * await validate({ op: "*" }); // { issues: [{ message: 'Instance does not match any of ["+","-"]', path: ["op"] }] }
 * ```
 */
export function jsonSchemaArguments(
  name: string,
  schema: Record<string, unknown>,
): (value: unknown) => Promise<StandardValidationResult<unknown>> {
  let check: Promise<Check> | undefined;
  const load = async (): Promise<Check> => {
    const { Validator } = await import("@cfworker/json-schema");
    const validator = new Validator(schema as never, draftOf(schema), false);
    return (value) => validator.validate(value) as { valid: boolean; errors: Unit[] };
  };
  return async (value) => {
    // A failed load (the package missing) is tried again on the next call.
    check ??= load().catch((err: unknown) => {
      check = undefined;
      throw err;
    });
    let result: { valid: boolean; errors: Unit[] };
    try {
      result = (await check)(value);
    } catch (err) {
      // An unresolvable $ref or the like: the schema is at fault, not the model.
      throw new TypeError(
        `tool "${name}": its parameters JSON Schema cannot check arguments (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    return result.valid ? { value } : { issues: argumentIssues(result.errors) };
  };
}
