/**
 * The checks an upload and a reference pass before anything is sent. The rules are W&B's own
 * clients' (wandb `sdk/artifacts/_validators.py`): names at most 128 characters without `/`,
 * aliases and types without `/` or `:`, `wandb-` types reserved. File paths must stay inside the
 * artifact: W&B's server stores `..` and absolute paths, but its clients refuse to download them,
 * so such a file could never be read back.
 */
import { RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import { checkMultipart } from "./multipart.js";
import type { ArtifactUploadParams } from "./types.js";

const NAME_MAX = 128;
const PROJECT_BAD = /[/\\#?%:\r\n]/;

/** Why a path inside an artifact is not safe to write under a directory, or undefined. */
export function unsafePathReason(path: string): string | undefined {
  if (path === "") return "is empty";
  if (path.includes("\0")) return "contains a NUL character";
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) return "is absolute";
  if (path.split(/[/\\]/).some((seg) => seg === "..")) return "has a `..` segment";
  return undefined;
}

function isData(v: unknown): boolean {
  if (typeof v === "string" || v instanceof Uint8Array) return true;
  if (typeof Blob !== "undefined" && v instanceof Blob) return true;
  return typeof v === "object" && v !== null && (Symbol.asyncIterator in v || Symbol.iterator in v);
}

/** Refuses upload parameters W&B or its clients would refuse, naming each field. */
export function checkUploadParams(params: ArtifactUploadParams): void {
  const issues: ValidationIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message, code: "custom" });
  const p = (typeof params === "object" && params !== null ? params : {}) as Partial<ArtifactUploadParams>;
  const text = (key: "entity" | "project" | "name" | "type") => {
    const v = p[key];
    if (typeof v !== "string" || v === "") {
      add(key, `${key} must be a non-empty string`);
      return undefined;
    }
    if (v.length > NAME_MAX) add(key, `${key} must be at most ${NAME_MAX} characters`);
    return v;
  };
  const entity = text("entity");
  if (entity?.includes("/")) add("entity", "entity must not contain `/`");
  const project = text("project");
  if (project !== undefined && PROJECT_BAD.test(project))
    add("project", "project must not contain any of / \\ # ? % : or a line break");
  const name = text("name");
  if (name?.includes("/")) add("name", "name must not contain `/` (pass entity and project on their own)");
  const type = text("type");
  if (type !== undefined && /[/:]/.test(type)) add("type", "type must not contain `/` or `:`");
  if (type?.startsWith("wandb-")) add("type", "types starting with `wandb-` are reserved by W&B: use another type");
  if (p.runId !== undefined && (typeof p.runId !== "string" || p.runId === ""))
    add("runId", "runId must be a non-empty string (the W&B run id)");
  if (p.aliases !== undefined) {
    if (!Array.isArray(p.aliases)) add("aliases", "aliases must be an array of strings");
    else
      p.aliases.forEach((a, i) => {
        if (typeof a !== "string" || a === "") add(`aliases.${i}`, "an alias must be a non-empty string");
        else if (/[/:]/.test(a)) add(`aliases.${i}`, "an alias must not contain `/` or `:`");
        else if (/^v\d+$/.test(a)) add(`aliases.${i}`, `"${a}" is a version W&B assigns itself: use another alias`);
      });
  }
  if (p.storageRegion !== undefined && (typeof p.storageRegion !== "string" || !/^[a-z0-9-]+$/.test(p.storageRegion)))
    add("storageRegion", 'storageRegion must be a W&B region name such as "coreweave-us"');
  if (p.metadata !== undefined && (typeof p.metadata !== "object" || p.metadata === null || Array.isArray(p.metadata)))
    add("metadata", "metadata must be a JSON object");
  if (!Array.isArray(p.files) || p.files.length === 0)
    add("files", "files must be a non-empty array of { name, data }");
  else {
    const seen = new Set<string>();
    p.files.forEach((f, i) => {
      if (typeof f !== "object" || f === null) return add(`files.${i}`, "a file must be { name, data }");
      if (typeof f.name !== "string") add(`files.${i}.name`, "name must be a string (the path inside the artifact)");
      else {
        const why = unsafePathReason(f.name);
        if (why)
          add(`files.${i}.name`, `the path ${JSON.stringify(f.name)} ${why}: use a relative path inside the artifact`);
        if (seen.has(f.name)) add(`files.${i}.name`, `the path ${JSON.stringify(f.name)} is given twice`);
        seen.add(f.name);
      }
      if (!isData(f.data))
        add(`files.${i}.data`, "data must be a string, a Uint8Array, a Blob or an (async) iterable of Uint8Array");
    });
  }
  checkMultipart(p.multipart, add);
  if (issues.length > 0) throw new RequestValidationError(issues, "artifacts.upload request");
}

/** An artifact reference taken apart. */
export interface ArtifactRef {
  entity: string;
  project: string;
  name: string;
  alias: string;
}

/**
 * `entity/project/name:alias` (or with `wandb-artifact:///` before it; no alias means
 * `latest`), refused before sending when it is not one.
 */
export function parseRef(ref: string, operation: string): ArtifactRef {
  const refuse = (message: string): never => {
    throw new RequestValidationError([{ path: "ref", message, code: "custom" }], `${operation} request`);
  };
  if (typeof ref !== "string") return refuse('ref must be a string like "entity/project/name:alias"');
  const bare = ref.startsWith("wandb-artifact:///") ? ref.slice("wandb-artifact:///".length) : ref;
  const parts = bare.split("/");
  if (parts.length !== 3 || parts.some((s) => s === ""))
    return refuse(`"${ref}" is not "entity/project/name:alias" (three parts separated by /)`);
  const [entity, project, nameAlias] = parts as [string, string, string];
  const colon = nameAlias.lastIndexOf(":");
  const name = colon < 0 ? nameAlias : nameAlias.slice(0, colon);
  const alias = colon < 0 ? "latest" : nameAlias.slice(colon + 1);
  if (name === "" || alias === "") return refuse(`"${ref}" has an empty name or alias`);
  return { entity, project, name, alias };
}
