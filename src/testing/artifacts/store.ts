/**
 * The fake's W&B artifact registry and its object storage, written from what W&B's server does
 * as its clients drive it (`wandb/wandb` `core/pkg/artifacts/saver.go`, not from this SDK):
 * artifacts are created PENDING with their digest and client id, files get signed upload URLs
 * (none when the content is stored already), the manifest is upserted by (artifact, name), and a
 * commit, which needs every file and the manifest stored, assigns the next version `vN` and
 * moves the requested aliases.
 * Signed URLs are capabilities: storage checks only the token in the URL (and refuses a request
 * that also carries an Authorization header, as S3 does), never the W&B key.
 */
import { md5 } from "@noble/hashes/legacy.js";
import { randomHex } from "../util.js";

/** Padded base64 of the MD5 of `bytes`, as W&B names content. */
export function md5Base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of md5(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Lower-case hex of a base64 MD5, the V2 storage key's last part. */
function b64ToHex(b64: string): string {
  let out = "";
  for (const c of atob(b64)) out += c.charCodeAt(0).toString(16).padStart(2, "0");
  return out;
}

/**
 * One artifact version (or a version being made) in the fake (`svc.state.artifacts.list()`).
 */
export interface FakeArtifact {
  id: string;
  entity: string;
  project: string;
  collection: string;
  type: string;
  /** The artifact's digest as the client sent it (MANIFEST_MD5). */
  digest: string;
  state: "PENDING" | "COMMITTED";
  versionIndex: number | null;
  clientID: string | null;
  /** The JSON string the client sent, as W&B keeps it. */
  metadata: string | null;
  description: string | null;
  /** The run (id) that logged it, when one did. */
  runName: string | null;
  /** The storage region `createArtifact` asked for (`coreweave-us`), null for W&B's default. */
  storageRegion: string | null;
  /** Aliases asked for at creation; they take effect at the commit. */
  requestedAliases: string[];
  /** Manifests by name (`wandb_manifest.json`): id, digest, storage key. */
  manifests: Map<string, { id: string; digest: string; key: string }>;
  /** Files announced with createArtifactFiles: their MD5 and storage key. */
  files: Map<string, { md5: string; key: string }>;
}

/** A collection: its type, committed versions in order, and where each alias points. */
interface Collection {
  type: string;
  versions: FakeArtifact[];
  aliases: Map<string, FakeArtifact>;
}

/** A signed URL's grant: what it may do to which object. */
export interface Grant {
  method: "PUT" | "GET";
  key: string;
  /** For a PUT: the MD5 the content must have (sent back as `Content-MD5`). */
  md5?: string;
  /** For a PUT: the artifact the content is uploaded for (its `birthArtifactID`). */
  birth?: string;
  /** For a part of a multipart upload: which upload and which part. */
  part?: { uploadId: string; partNumber: number };
}

/**
 * A multipart upload in progress (S3's semantics): the parts announced with their hex MD5, and
 * the parts stored so far with the ETag storage gave each.
 */
export interface MultipartUpload {
  key: string;
  /** The whole file's base64 MD5, as announced. */
  md5: string;
  birth: string;
  announced: Map<number, string>;
  stored: Map<number, { bytes: Uint8Array; etag: string }>;
}

/**
 * The store behind the fake's GraphQL artifact operations and its storage routes.
 */
export class ArtifactStore {
  private readonly byId = new Map<string, FakeArtifact>();
  private readonly collections = new Map<string, Collection>();
  private readonly byClientId = new Map<string, FakeArtifact>();
  /** Stored objects by key; `birth` is the artifact that first stored the content. */
  private readonly objects = new Map<string, { bytes: Uint8Array; md5: string; birth: string }>();
  private readonly grants = new Map<string, Grant>();
  /** Multipart uploads in progress, by upload id. */
  readonly uploads = new Map<string, MultipartUpload>();
  private counter = 0;

  /**
   * Every artifact, committed or not, in creation order.
   *
   * @example
   * ```ts
   * expect(svc.state.artifacts.list().some((a) => a.state === "COMMITTED")).toBe(false);
   * ```
   */
  list(): FakeArtifact[] {
    return [...this.byId.values()];
  }

  /**
   * Forgets everything.
   *
   * @example
   * ```ts
   * svc.state.artifacts.clear();
   * ```
   */
  clear(): void {
    this.byId.clear();
    this.collections.clear();
    this.byClientId.clear();
    this.objects.clear();
    this.grants.clear();
    this.uploads.clear();
    this.counter = 0;
  }

  /** W&B ids are base64 of `Type:number`. */
  nextId(): string {
    this.counter++;
    return btoa(`Artifact:${1000 + this.counter}`);
  }

  /** The artifact with this id, or undefined. */
  get(id: string): FakeArtifact | undefined {
    return this.byId.get(id);
  }

  /** Registers a new artifact (PENDING) and its client id. */
  add(artifact: FakeArtifact): void {
    this.byId.set(artifact.id, artifact);
    if (artifact.clientID !== null) this.byClientId.set(artifact.clientID, artifact);
  }

  /** The artifact a client id was first sent with. */
  byClient(clientID: string): FakeArtifact | undefined {
    return this.byClientId.get(clientID);
  }

  /** The collection key of an artifact's project and name. */
  static key(entity: string, project: string, name: string): string {
    return `${entity}/${project}/${name}`;
  }

  /** The collection of a project and name, if any version was ever committed or started. */
  collection(entity: string, project: string, name: string): Collection | undefined {
    return this.collections.get(ArtifactStore.key(entity, project, name));
  }

  /** The collection, made on first use with its type. */
  ensureCollection(entity: string, project: string, name: string, type: string): Collection {
    const key = ArtifactStore.key(entity, project, name);
    let c = this.collections.get(key);
    if (c === undefined) {
      c = { type, versions: [], aliases: new Map() };
      this.collections.set(key, c);
    }
    return c;
  }

  /** The committed version an alias (`latest`, `step3`) or `vN` names. */
  resolve(entity: string, project: string, name: string, alias: string): FakeArtifact | undefined {
    const c = this.collection(entity, project, name);
    if (c === undefined) return undefined;
    const v = /^v(\d+)$/.exec(alias);
    if (v) return c.versions[Number(v[1])];
    return c.aliases.get(alias);
  }

  /** The aliases pointing at a version, `vN` first. */
  aliasesOf(a: FakeArtifact): string[] {
    const c = this.collection(a.entity, a.project, a.collection);
    // A version kept outside the collections (a trained checkpoint) carries its own aliases.
    const named =
      c?.versions.includes(a) === true
        ? [...c.aliases].filter(([, x]) => x === a).map(([alias]) => alias)
        : a.state === "COMMITTED"
          ? a.requestedAliases
          : [];
    return a.versionIndex === null ? named : [`v${a.versionIndex}`, ...named];
  }

  /** Commits: assigns the next version of the collection and moves the requested aliases. */
  commit(a: FakeArtifact): void {
    const c = this.ensureCollection(a.entity, a.project, a.collection, a.type);
    a.state = "COMMITTED";
    a.versionIndex = c.versions.length;
    c.versions.push(a);
    for (const alias of a.requestedAliases) c.aliases.set(alias, a);
  }

  /** The storage key of content in W&B's V2 layout: by project and MD5. */
  contentKey(entity: string, project: string, md5b64: string): string {
    return `wandb_artifacts/${entity}/${project}/${b64ToHex(md5b64)}`;
  }

  /** The stored object of a key, if uploaded. */
  object(key: string): { bytes: Uint8Array; md5: string; birth: string } | undefined {
    return this.objects.get(key);
  }

  /** Stores bytes under a key directly (the fake's own LoRA checkpoints). */
  put(key: string, bytes: Uint8Array, birth: string): void {
    this.objects.set(key, { bytes, md5: md5Base64(bytes), birth });
  }

  /** A signed URL path granting one method on one object. */
  sign(grant: Grant): string {
    const token = randomHex(40);
    this.grants.set(token, grant);
    return `/storage/${token}`;
  }

  /** What a token grants, if it exists. */
  grant(token: string): Grant | undefined {
    return this.grants.get(token);
  }

  /** Keeps the bytes of an upload whose grant was checked, remembering the first artifact. */
  store(key: string, bytes: Uint8Array, birth: string): void {
    const existing = this.objects.get(key);
    this.objects.set(key, { bytes, md5: md5Base64(bytes), birth: existing?.birth ?? birth });
  }
}
