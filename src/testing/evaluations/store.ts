/**
 * The objects, tables and files of the fake's Weave projects: what an evaluation publishes.
 * Content-addressed as Weave's server addresses them (`wandb/weave` `weave/shared/digest.py`:
 * SHA-256 in Weave's URL-safe base64; a table's digest made from its rows'), so writing the same
 * content again gives the same digest, and the same object version.
 */
import { isRecord } from "../util.js";
import { dumpsSorted, sha256Hex, strDigest } from "./digest.js";

/** One version of a Weave object in the fake, as `/obj/read` returns it. */
export interface FakeWeaveObject {
  project_id: string;
  object_id: string;
  digest: string;
  version_index: number;
  created_at: string;
  val: unknown;
  kind: "op" | "object";
  base_object_class: string | null;
  leaf_object_class: string | null;
}

/** An object's base class, as the server reads it from `_bases` (`base_object_class_util.py`). */
function classesOf(val: unknown): { base: string | null; leaf: string | null; kind: "op" | "object" } {
  if (!isRecord(val)) return { base: null, leaf: null, kind: "object" };
  const weaveType = val["weave_type"];
  if (val["_type"] === "CustomWeaveType" && isRecord(weaveType) && weaveType["type"] === "Op")
    return { base: null, leaf: null, kind: "op" };
  const className = typeof val["_class_name"] === "string" ? val["_class_name"] : null;
  const bases = Array.isArray(val["_bases"]) ? (val["_bases"] as unknown[]) : [];
  const tail = bases.length >= 2 && bases.at(-1) === "BaseModel" && bases.at(-2) === "Object";
  const base = tail ? ((bases.length > 2 ? bases.at(-3) : className) as string | null) : null;
  return { base, leaf: className, kind: "object" };
}

/**
 * The objects, tables and files of the fake's Weave projects (`svc.state.weave`): what an
 * evaluation published, for a test to look at.
 *
 * @example
 * ```ts
 * const evaluation = svc.state.weave.read("acme/agents", "qa", "latest");
 * console.log(evaluation?.val);
 * ```
 */
export class WeaveObjectStore {
  /** Versions of each object, oldest first, by `project\0object_id`. */
  readonly objects = new Map<string, FakeWeaveObject[]>();
  /** Each table's rows and their digests, by `project\0digest`. */
  readonly tables = new Map<string, { rows: unknown[]; digests: string[] }>();
  /** File contents by `project\0digest`. */
  readonly files = new Map<string, string>();
  /** Call ends that came before their start, by `project\0id`: the server merges a call's parts by id. */
  readonly earlyEnds = new Map<string, Record<string, unknown>>();

  /**
   * Forgets everything (what `svc.reset()` does).
   *
   * @example
   * ```ts
   * svc.state.weave.clear();
   * ```
   */
  clear(): void {
    this.objects.clear();
    this.tables.clear();
    this.files.clear();
    this.earlyEnds.clear();
  }

  /**
   * The version of an object with that digest (or the latest, for `latest`).
   *
   * @example
   * ```ts
   * const model = svc.state.weave.read("acme/agents", "Qwen-Qwen3-8B", "latest");
   * console.log(model?.digest, model?.val);
   * ```
   */
  read(projectId: string, objectId: string, digest: string): FakeWeaveObject | undefined {
    const versions = this.objects.get(`${projectId}\u0000${objectId}`) ?? [];
    return digest === "latest" ? versions.at(-1) : versions.find((v) => v.digest === digest);
  }

  /** @internal Stores an object's value (a new version unless it has one with that content); its digest. */
  createObject(projectId: string, objectId: string, val: unknown): string {
    const digest = strDigest(dumpsSorted(val));
    const key = `${projectId}\u0000${objectId}`;
    const versions = this.objects.get(key) ?? [];
    if (!versions.some((v) => v.digest === digest)) {
      const classes = classesOf(val);
      versions.push({
        project_id: projectId,
        object_id: objectId,
        digest,
        version_index: versions.length,
        created_at: new Date().toISOString(),
        val,
        kind: classes.kind,
        base_object_class: classes.base,
        leaf_object_class: classes.leaf,
      });
      this.objects.set(key, versions);
    }
    return digest;
  }

  /** @internal Stores a table's rows; its digest and its rows' (`table_digest_from_row_digests`). */
  createTable(projectId: string, rows: unknown[]): { digest: string; row_digests: string[] } {
    const digests = rows.map((row) => strDigest(dumpsSorted(row)));
    const digest = sha256Hex(digests.join(""));
    this.tables.set(`${projectId}\u0000${digest}`, { rows, digests });
    return { digest, row_digests: digests };
  }

  /** @internal Stores a file; its digest. */
  createFile(projectId: string, content: string): string {
    const digest = strDigest(content);
    this.files.set(`${projectId}\u0000${digest}`, content);
    return digest;
  }
}
