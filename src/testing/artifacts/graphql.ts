/**
 * W&B's GraphQL artifact subset, as the fake serves it: `POST /graphql` (Basic auth, the API
 * key as password) routed on the operation's top-level field, as W&B's server does whatever
 * `operationName` says; its upload URLs point at the signed storage (`storage.ts`). GraphQL
 * refusals come as W&B words them: `{"data":{"<field>":null},"errors":[{message, path}]}`, with
 * status 400 for a bad input and 200 for a query that finds nothing. Trained checkpoints are
 * `lora` artifacts here too: `{entity}/{project}/{model}:step{N}` (`lora.ts`).
 */

import { jsonResponse } from "../responses.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";
import { runGraphQLState, runResumeStatus, upsertBucket } from "../wandb-runs/graphql.js";
import { type ArtifactState, find, loraById } from "./lora.js";
import { completeMultipart, startMultipart } from "./multipart.js";
import type { FakeArtifact } from "./store.js";

type Vars = Record<string, unknown>;

function gqlError(status: number, field: string, message: string): ResponsePlan {
  return jsonResponse(status, { data: { [field]: null }, errors: [{ message, path: [field] }] });
}

const data = (field: string, value: unknown) => jsonResponse(200, { data: { [field]: value } });

/** The storage origin: the host the client reached (signed URLs point back at the fake). */
function origin(req: FakeRequest): string {
  const host = req.headers.host;
  return host ? `http://${host}` : "http://storage.fake.invalid";
}

/** The first field selected by the operation (`createArtifact`, `project`, `artifact`). */
function topField(query: string): string | undefined {
  const open = query.indexOf("{");
  if (open < 0) return undefined;
  const m = /^\s*(?:\w+\s*:\s*)?(\w+)/.exec(query.slice(open + 1));
  return m?.[1];
}

const B64_MD5 = /^[A-Za-z0-9+/]{22}==$/;

export function graphql(ctx: { req: FakeRequest; state: ArtifactState }): ResponsePlan {
  const { req, state } = ctx;
  const body = req.json;
  if (!isRecord(body) || typeof body.query !== "string")
    return jsonResponse(400, { errors: [{ message: "Must provide query string." }] });
  const vars: Vars = isRecord(body.variables) ? body.variables : {};
  const query = body.query;
  const field = topField(query);
  switch (field) {
    case "createArtifact":
      return createArtifact(state, vars);
    case "createArtifactManifest":
      return createManifest(state, vars, req);
    case "createArtifactFiles":
      return createFiles(state, vars, req);
    case "commitArtifact":
      return commit(state, vars);
    case "completeMultipartUploadArtifact":
      return completeMultipart(state, vars);
    case "artifact":
      return artifactById(state, vars, query, req);
    case "project":
      return project(state, vars, query, req);
    case "upsertBucket":
      return upsertBucket(runGraphQLState(state), vars);
    case "model":
      return runResumeStatus(runGraphQLState(state), vars);
    default:
      return gqlError(400, field ?? "query", `Cannot query field "${field ?? ""}" on type "Query".`);
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function createArtifact(state: ArtifactState, vars: Vars): ResponsePlan {
  const F = "createArtifact";
  const input = vars.input;
  if (!isRecord(input))
    return gqlError(400, F, 'Variable "$input" of required type "CreateArtifactInput!" was not provided.');
  for (const key of ["entityName", "projectName", "artifactTypeName", "digest"])
    if (typeof input[key] !== "string")
      return gqlError(
        400,
        F,
        `Variable "$input" got invalid value; Field "${key}" of required type "String!" was not provided.`,
      );
  if (input.digestAlgorithm !== "MANIFEST_MD5")
    return gqlError(
      400,
      F,
      'Variable "$input" got invalid value; Field "digestAlgorithm" of required type "ArtifactDigestAlgorithm!" was not provided or is not MANIFEST_MD5.',
    );
  // Go sends artifactCollectionName, Python artifactCollectionNames: the schema takes both.
  const names = Array.isArray(input.artifactCollectionNames) ? input.artifactCollectionNames : [];
  const name = str(input.artifactCollectionName) ?? str(names[0]);
  if (name === undefined) return gqlError(400, F, "an artifact collection name is required");
  if (name.includes("/") || name.length > 128) return gqlError(400, F, `invalid artifact name: ${name}`);
  const entity = input.entityName as string;
  const project = input.projectName as string;
  const type = input.artifactTypeName as string;
  const digest = input.digest as string;
  const store = state.artifacts;
  const clientID = str(input.clientID) ?? null;
  if (clientID !== null) {
    const known = store.byClient(clientID);
    // A retry resends the same client id: the same artifact, unless the content changed.
    if (known !== undefined) {
      if (known.digest !== digest) return gqlError(400, F, "Invalid Client ID digest");
      return data(F, { artifact: view(state, known) });
    }
  }
  const collection = store.collection(entity, project, name);
  if (collection !== undefined && collection.type !== type)
    return gqlError(400, F, `artifact collection ${name} has type ${collection.type}, not ${type}`);
  const latest = collection?.versions.at(-1);
  if (input.enableDigestDeduplication === true && latest !== undefined && latest.digest === digest)
    return data(F, { artifact: view(state, latest) });
  const aliases: string[] = [];
  if (Array.isArray(input.aliases))
    for (const a of input.aliases) {
      const alias = isRecord(a) ? str(a.alias) : undefined;
      if (alias === undefined || /[/:]/.test(alias)) return gqlError(400, F, `invalid alias: ${String(alias)}`);
      aliases.push(alias);
    }
  const artifact: FakeArtifact = {
    id: store.nextId(),
    entity,
    project,
    collection: name,
    type,
    digest,
    state: "PENDING",
    versionIndex: null,
    clientID,
    metadata: typeof input.metadata === "string" ? input.metadata : null,
    description: typeof input.description === "string" ? input.description : null,
    runName: str(input.runName) ?? null,
    // CreateArtifactInput.storageRegion (wandb core/internal/gql/gql_gen.go); W&B's clients put
    // the same region in the manifest's storagePolicyConfig too.
    storageRegion: str(input.storageRegion) ?? null,
    requestedAliases: aliases,
    manifests: new Map(),
    files: new Map(),
  };
  store.ensureCollection(entity, project, name, type);
  store.add(artifact);
  return data(F, {
    artifact: { ...view(state, artifact), artifactSequence: { latestArtifact: latest ? { id: latest.id } : null } },
  });
}

function view(state: ArtifactState, a: FakeArtifact): Record<string, unknown> {
  return {
    id: a.id,
    state: a.state,
    digest: a.digest,
    versionIndex: a.versionIndex,
    artifactType: { name: a.type },
    metadata: a.metadata,
    description: a.description,
    aliases: state.artifacts.aliasesOf(a).map((alias) => ({ alias })),
    artifactSequence: { latestArtifact: null },
  };
}

function createManifest(state: ArtifactState, vars: Vars, req: FakeRequest): ResponsePlan {
  const F = "createArtifactManifest";
  const artifact = typeof vars.artifactID === "string" ? state.artifacts.get(vars.artifactID) : undefined;
  if (artifact === undefined) return gqlError(400, F, "artifact not found");
  const name = str(vars.name);
  if (name === undefined || typeof vars.digest !== "string") return gqlError(400, F, "name and digest are required");
  if (vars.type !== undefined && vars.manifestType === undefined && vars.type !== "FULL")
    return gqlError(400, F, "only FULL manifests are created here");
  if (vars.manifestType !== undefined && vars.manifestType !== "FULL")
    return gqlError(400, F, `manifest type ${String(vars.manifestType)}: use updateArtifactManifest`);
  if (artifact.state === "COMMITTED") return gqlError(400, F, "artifact is already committed");
  // Upserted on (artifact, name): W&B's clients call this twice, the second time with the digest.
  const existing = artifact.manifests.get(name);
  const manifest = existing ?? { id: state.artifacts.nextId(), digest: "", key: `manifests/${artifact.id}/${name}` };
  manifest.digest = vars.digest;
  artifact.manifests.set(name, manifest);
  const file: Record<string, unknown> = { id: `${manifest.id}-file` };
  if (vars.includeUpload === true) {
    if (!B64_MD5.test(manifest.digest)) return gqlError(400, F, "an upload needs the manifest's base64 MD5 digest");
    file.uploadUrl =
      origin(req) +
      state.artifacts.sign({ method: "PUT", key: manifest.key, md5: manifest.digest, birth: artifact.id });
    file.uploadHeaders = [`Content-MD5:${manifest.digest}`, "Content-Type:application/json"];
  }
  return data(F, { artifactManifest: { id: manifest.id, file } });
}

function createFiles(state: ArtifactState, vars: Vars, req: FakeRequest): ResponsePlan {
  const F = "createArtifactFiles";
  const input = isRecord(vars.input) ? vars.input : vars;
  const specs = input.artifactFiles;
  if (!Array.isArray(specs))
    return gqlError(
      400,
      F,
      'Field "artifactFiles" of required type "[CreateArtifactFileSpecInput!]!" was not provided.',
    );
  if (input.storageLayout !== "V2" && input.storageLayout !== "V1")
    return gqlError(400, F, 'Field "storageLayout" of required type "ArtifactStorageLayout!" was not provided.');
  const edges: unknown[] = [];
  for (const spec of specs) {
    if (!isRecord(spec)) return gqlError(400, F, "each file spec must be an object");
    const artifact = typeof spec.artifactID === "string" ? state.artifacts.get(spec.artifactID) : undefined;
    if (artifact === undefined) return gqlError(400, F, "artifact not found");
    if (artifact.state === "COMMITTED") return gqlError(400, F, "artifact is already committed");
    const name = str(spec.name);
    if (name === undefined) return gqlError(400, F, "a file spec needs a name");
    if (typeof spec.md5 !== "string" || !B64_MD5.test(spec.md5))
      return gqlError(400, F, `file ${name}: md5 must be the base64 MD5 of its content`);
    const key = state.artifacts.contentKey(artifact.entity, artifact.project, spec.md5);
    artifact.files.set(name, { md5: spec.md5, key });
    const stored = state.artifacts.object(key);
    const parts = spec.uploadPartsInput;
    let multipart: Record<string, unknown> | null = null;
    if (!stored && Array.isArray(parts) && parts.length > 0) {
      const started = startMultipart(state, artifact, { name, key, md5: spec.md5 }, parts, origin(req));
      if ("problem" in started) return gqlError(400, F, started.problem);
      multipart = started.urls;
    }
    edges.push({
      node: {
        displayName: name,
        name,
        storagePath: key,
        // Content already stored (by md5) is not uploaded again.
        uploadUrl: stored
          ? null
          : origin(req) + state.artifacts.sign({ method: "PUT", key, md5: spec.md5, birth: artifact.id }),
        uploadHeaders: stored ? [] : [`Content-MD5:${spec.md5}`],
        uploadMultipartUrls: multipart,
        artifact: { id: stored?.birth ?? artifact.id },
      },
    });
  }
  return data(F, { files: { edges } });
}

function commit(state: ArtifactState, vars: Vars): ResponsePlan {
  const F = "commitArtifact";
  const id = isRecord(vars.input) ? vars.input.artifactID : vars.artifactID;
  const artifact = typeof id === "string" ? state.artifacts.get(id) : undefined;
  if (artifact === undefined) return gqlError(400, F, "artifact not found");
  // W&B's uploaders retry a commit whose answer was lost (wandb core/internal/api/gql_client.go,
  // clients.CheckRetry): the version it made is answered again. What W&B's server answers is not
  // public; anything else would fail its own clients' retries.
  if (artifact.state === "COMMITTED") return data(F, { artifact: { id: artifact.id, digest: artifact.digest } });
  const manifest = artifact.manifests.get("wandb_manifest.json");
  const stored = manifest && state.artifacts.object(manifest.key);
  if (!manifest || !stored || stored.md5 !== manifest.digest)
    return gqlError(400, F, "cannot commit an artifact whose manifest was not uploaded");
  let contents: Record<string, unknown>;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(stored.bytes)) as unknown;
    if (!isRecord(parsed) || !isRecord(parsed.contents)) throw new Error("no contents");
    contents = parsed.contents;
  } catch {
    return gqlError(400, F, "the uploaded manifest is not a valid manifest");
  }
  for (const [name, entry] of Object.entries(contents)) {
    if (!isRecord(entry) || typeof entry.digest !== "string")
      return gqlError(400, F, `manifest entry ${name} has no digest`);
    if (typeof entry.ref === "string") continue;
    const key = state.artifacts.contentKey(artifact.entity, artifact.project, entry.digest);
    if (state.artifacts.object(key) === undefined)
      return gqlError(400, F, `cannot commit: the content of ${name} was never uploaded`);
  }
  state.artifacts.commit(artifact);
  return data(F, { artifact: { id: artifact.id, digest: artifact.digest } });
}

function artifactById(state: ArtifactState, vars: Vars, query: string, req: FakeRequest): ResponsePlan {
  const id = vars.id ?? vars.artifact_id ?? vars.artifactID;
  const artifact = typeof id === "string" ? (state.artifacts.get(id) ?? loraById(state, id)) : undefined;
  if (artifact === undefined) return data("artifact", null);
  const out = view(state, artifact);
  if (query.includes("currentManifest")) {
    const manifest = artifact.manifests.get("wandb_manifest.json");
    out.currentManifest =
      manifest && artifact.state === "COMMITTED"
        ? { file: { directUrl: origin(req) + state.artifacts.sign({ method: "GET", key: manifest.key }) } }
        : null;
  }
  return data("artifact", out);
}

function project(state: ArtifactState, vars: Vars, query: string, req: FakeRequest): ResponsePlan {
  const entity = str(vars.entity) ?? str(vars.entityName);
  const projectName = str(vars.project) ?? str(vars.projectName);
  if (entity === undefined || projectName === undefined)
    return gqlError(400, "project", 'Variables "$entity" and "$project" of required type "String!" were not provided.');
  if (/artifactCollectionMembership\s*\(/.test(query)) {
    const full = str(vars.name) ?? "";
    const colon = full.lastIndexOf(":");
    const name = colon < 0 ? full : full.slice(0, colon);
    const alias = colon < 0 ? "latest" : full.slice(colon + 1);
    const artifact = find(state, entity, projectName, name, alias);
    if (artifact === undefined) return data("project", { name: projectName, artifactCollectionMembership: null });
    return data("project", {
      name: projectName,
      artifactCollectionMembership: {
        versionIndex: artifact.versionIndex,
        aliases: state.artifacts
          .aliasesOf(artifact)
          .filter((a) => !/^v\d+$/.test(a))
          .map((alias) => ({ alias })),
        artifactCollection: { name, project: { name: projectName, entity: { name: entity } } },
        artifact: view(state, artifact),
      },
    });
  }
  if (/artifactMembership\s*\(/.test(query)) {
    const artifact = find(state, entity, projectName, str(vars.collection) ?? "", str(vars.alias) ?? "latest");
    if (artifact === undefined) return data("project", { name: projectName, artifactCollection: null });
    const names = [...artifact.files.keys()].sort();
    const first = typeof vars.perPage === "number" ? vars.perPage : 50;
    const start = typeof vars.cursor === "string" ? Number(vars.cursor) : 0;
    const page = names.slice(start, start + first);
    const end = start + page.length;
    return data("project", {
      name: projectName,
      artifactCollection: {
        name: vars.collection,
        artifactMembership: {
          files: {
            pageInfo: { endCursor: page.length > 0 ? String(end) : null, hasNextPage: end < names.length },
            edges: page.map((name) => ({
              node: {
                name,
                displayName: name,
                directUrl: origin(req) + state.artifacts.sign({ method: "GET", key: artifact.files.get(name)!.key }),
              },
            })),
          },
        },
      },
    });
  }
  return gqlError(400, "project", "Cannot query this field of Project in the fake.");
}
