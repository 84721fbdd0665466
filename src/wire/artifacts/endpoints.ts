/**
 * The GraphQL operations of W&B's artifact protocol that this client sends, each declared as an
 * endpoint. Field names are W&B's schema's (wandb `core/api/graphql/*.graphql` and the Python
 * SDK's generated operations, `core/api/graphql/*.graphql`); the documents ask only for what is
 * read. Every one is retried like a GET: W&B's own Go client retries each of them, a repeated
 * `createArtifact` carries the same `clientID` (W&B answers it with the same artifact), the
 * manifest call is an upsert, and `createArtifactFiles` only hands out URLs.
 */

import { expectObject, isObject, shapeError } from "../../core/decoding/response-checks.js";
import { ResponseParseError } from "../../core/errors/errors.js";
import { graphqlEndpoint, jsonStringValue } from "../graphql.js";
import type { FileSlot } from "./file-slot.js";
import { MULTIPART_FIELDS } from "./multipart.js";

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const need = (o: Record<string, unknown>, key: string, what: string): string => {
  const v = o[key];
  if (typeof v !== "string" || v === "") throw shapeError(what, key, v, "a non-empty string");
  return v;
};
const obj = (v: unknown, what: string, path: string) => expectObject(v, what, path);

/** `createArtifact`'s answer: the (possibly already committed) artifact. */
export interface CreatedArtifact {
  id: string;
  state: string;
  /** The collection's latest version before this one, the manifest's base. */
  latestArtifactId: string | null;
}

export const createArtifact = graphqlEndpoint<{ input: Record<string, unknown> }, CreatedArtifact>({
  operation: "artifacts.create",
  operationName: "CreateArtifact",
  retry: "safe",
  query: `mutation CreateArtifact($input: CreateArtifactInput!) {
  createArtifact(input: $input) {
    artifact { id state artifactSequence { latestArtifact { id } } }
  }
}`,
  read: (data) => {
    const what = "createArtifact answer";
    const artifact = obj(obj(data.createArtifact, what, "createArtifact").artifact, what, "createArtifact.artifact");
    const latest = isObject(artifact.artifactSequence) ? artifact.artifactSequence.latestArtifact : undefined;
    return {
      id: need(artifact, "id", what),
      state: str(artifact.state) ?? "PENDING",
      latestArtifactId: isObject(latest) ? (str(latest.id) ?? null) : null,
    };
  },
});

/** `createArtifactManifest`'s answer: the manifest's id, and where to PUT it when asked. */
export interface CreatedManifest {
  id: string;
  uploadUrl: string | null;
  uploadHeaders: string[];
}

export const createManifest = graphqlEndpoint<Record<string, unknown>, CreatedManifest>({
  operation: "artifacts.create_manifest",
  operationName: "CreateArtifactManifest",
  retry: "safe",
  query: `mutation CreateArtifactManifest($artifactID: ID!, $baseArtifactID: ID, $name: String!, $digest: String!, $entityName: String!, $projectName: String!, $runName: String!, $manifestType: ArtifactManifestType!, $includeUpload: Boolean!) {
  createArtifactManifest(input: { artifactID: $artifactID, baseArtifactID: $baseArtifactID, name: $name, digest: $digest, entityName: $entityName, projectName: $projectName, runName: $runName, type: $manifestType }) {
    artifactManifest { id file { id uploadUrl @include(if: $includeUpload) uploadHeaders @include(if: $includeUpload) } }
  }
}`,
  read: (data) => {
    const what = "createArtifactManifest answer";
    const payload = obj(data.createArtifactManifest, what, "createArtifactManifest");
    const manifest = obj(payload.artifactManifest, what, "createArtifactManifest.artifactManifest");
    const file = isObject(manifest.file) ? manifest.file : {};
    return {
      id: need(manifest, "id", what),
      uploadUrl: str(file.uploadUrl) ?? null,
      uploadHeaders: headerList(file.uploadHeaders),
    };
  },
});

export const createFiles = graphqlEndpoint<
  { artifactFiles: Record<string, unknown>[]; storageLayout: "V2" },
  FileSlot[]
>({
  operation: "artifacts.create_files",
  operationName: "CreateArtifactFiles",
  retry: "safe",
  query: `mutation CreateArtifactFiles($artifactFiles: [CreateArtifactFileSpecInput!]!, $storageLayout: ArtifactStorageLayout!) {
  createArtifactFiles(input: { artifactFiles: $artifactFiles, storageLayout: $storageLayout }) {
    files { edges { node { storagePath uploadUrl uploadHeaders${MULTIPART_FIELDS} artifact { id } } } }
  }
}`,
  read: (data) => {
    const what = "createArtifactFiles answer";
    const files = obj(
      obj(data.createArtifactFiles, what, "createArtifactFiles").files,
      what,
      "createArtifactFiles.files",
    );
    if (!Array.isArray(files.edges)) throw shapeError(what, "createArtifactFiles.files.edges", files.edges, "an array");
    return files.edges.map((edge, i) => {
      const node = obj(isObject(edge) ? edge.node : edge, what, `createArtifactFiles.files.edges.${i}.node`);
      const artifact = obj(node.artifact, what, `createArtifactFiles.files.edges.${i}.node.artifact`);
      return {
        uploadUrl: str(node.uploadUrl) ?? null,
        uploadHeaders: headerList(node.uploadHeaders),
        birthArtifactId: need(artifact, "id", what),
        storagePath: str(node.storagePath) ?? null,
        uploadMultipartUrls: node.uploadMultipartUrls,
      };
    });
  },
});

// Retried like W&B's own uploader retries it: wandb core/internal/api/gql_client.go sends every
// GraphQL request, this one included, with clients.CheckRetry (connection errors, 429, 5xx).
export const commitArtifact = graphqlEndpoint<{ artifactID: string }, { id: string; digest: string | undefined }>({
  operation: "artifacts.commit",
  operationName: "CommitArtifact",
  retry: "safe",
  query: `mutation CommitArtifact($artifactID: ID!) {
  commitArtifact(input: { artifactID: $artifactID }) { artifact { id digest } }
}`,
  read: (data) => {
    const what = "commitArtifact answer";
    const artifact = obj(obj(data.commitArtifact, what, "commitArtifact").artifact, what, "commitArtifact.artifact");
    return { id: need(artifact, "id", what), digest: str(artifact.digest) };
  },
});

/** An artifact's version as W&B reports it by id; null while it cannot be read yet. */
export interface ArtifactVersion {
  id: string;
  versionIndex: number | null;
  state: string;
  digest: string;
}

export const artifactById = graphqlEndpoint<{ id: string }, ArtifactVersion | null>({
  operation: "artifacts.version",
  operationName: "ArtifactByID",
  retry: "safe",
  query: `query ArtifactByID($id: ID!) {
  artifact(id: $id) { id versionIndex state digest }
}`,
  read: (data) => {
    if (data.artifact == null) return null;
    const a = obj(data.artifact, "artifact answer", "artifact");
    return {
      id: need(a, "id", "artifact answer"),
      versionIndex: typeof a.versionIndex === "number" ? a.versionIndex : null,
      state: str(a.state) ?? "",
      digest: str(a.digest) ?? "",
    };
  },
});

/** An artifact found by `name:alias` in a project. */
export interface Membership {
  id: string;
  versionIndex: number;
  aliases: string[];
  type: string;
  state: string;
  digest: string;
  metadata: Record<string, unknown> | null;
}

export const membershipByName = graphqlEndpoint<{ entity: string; project: string; name: string }, Membership | null>({
  operation: "artifacts.retrieve",
  operationName: "ArtifactMembershipByName",
  retry: "safe",
  query: `query ArtifactMembershipByName($entity: String!, $project: String!, $name: String!) {
  project(name: $project, entityName: $entity) {
    artifactCollectionMembership(name: $name) {
      versionIndex
      aliases { alias }
      artifact { id versionIndex artifactType { name } state digest metadata }
    }
  }
}`,
  read: (data) => {
    const what = "artifactCollectionMembership answer";
    if (data.project == null) return null;
    const m = obj(data.project, what, "project").artifactCollectionMembership;
    if (m == null) return null;
    const membership = obj(m, what, "project.artifactCollectionMembership");
    const artifact = obj(membership.artifact, what, "project.artifactCollectionMembership.artifact");
    const versionIndex = membership.versionIndex ?? artifact.versionIndex;
    if (typeof versionIndex !== "number") throw shapeError(what, "versionIndex", versionIndex, "a number");
    const aliases = Array.isArray(membership.aliases)
      ? membership.aliases.flatMap((a) => (isObject(a) && typeof a.alias === "string" ? [a.alias] : []))
      : [];
    return {
      id: need(artifact, "id", what),
      versionIndex,
      aliases,
      type: isObject(artifact.artifactType) ? (str(artifact.artifactType.name) ?? "") : "",
      state: str(artifact.state) ?? "",
      digest: str(artifact.digest) ?? "",
      metadata: parseMetadata(artifact.metadata),
    };
  },
});

export const manifestUrl = graphqlEndpoint<{ id: string }, string>({
  operation: "artifacts.manifest",
  operationName: "FetchArtifactManifest",
  retry: "safe",
  query: `query FetchArtifactManifest($id: ID!) {
  artifact(id: $id) { currentManifest { file { directUrl } } }
}`,
  read: (data) => {
    const what = "currentManifest answer";
    const artifact = obj(data.artifact, what, "artifact");
    const manifest = obj(artifact.currentManifest, what, "artifact.currentManifest");
    return need(obj(manifest.file, what, "artifact.currentManifest.file"), "directUrl", what);
  },
});

/** One page of an artifact version's file URLs. */
export interface FileUrlPage {
  files: { name: string; directUrl: string }[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export const fileUrls = graphqlEndpoint<
  { entity: string; project: string; collection: string; alias: string; cursor: string | null; perPage: number },
  FileUrlPage
>({
  operation: "artifacts.file_urls",
  operationName: "ArtifactMembershipFileUrls",
  retry: "safe",
  query: `query ArtifactMembershipFileUrls($entity: String!, $project: String!, $collection: String!, $alias: String!, $cursor: String, $perPage: Int) {
  project(name: $project, entityName: $entity) {
    artifactCollection(name: $collection) {
      artifactMembership(aliasName: $alias) {
        files(after: $cursor, first: $perPage) {
          pageInfo { endCursor hasNextPage }
          edges { node { name: displayName directUrl } }
        }
      }
    }
  }
}`,
  read: (data) => {
    const what = "artifactMembership files answer";
    const project = obj(data.project, what, "project");
    const collection = obj(project.artifactCollection, what, "project.artifactCollection");
    const membership = obj(collection.artifactMembership, what, "project.artifactCollection.artifactMembership");
    const files = obj(membership.files, what, "files");
    const info = isObject(files.pageInfo) ? files.pageInfo : {};
    if (!Array.isArray(files.edges)) throw shapeError(what, "files.edges", files.edges, "an array");
    return {
      files: files.edges.map((e, i) => {
        const node = obj(isObject(e) ? e.node : e, what, `files.edges.${i}.node`);
        return { name: need(node, "name", what), directUrl: need(node, "directUrl", what) };
      }),
      endCursor: str(info.endCursor) ?? null,
      hasNextPage: info.hasNextPage === true,
    };
  },
});

/** `uploadHeaders` is a list of `"Key:Value"` strings (wandb/wandb `core/pkg/artifacts/saver.go`). */
function headerList(v: unknown): string[] {
  if (v == null) return [];
  if (!Array.isArray(v) || v.some((h) => typeof h !== "string"))
    throw new ResponseParseError("The `uploadHeaders` of an upload slot is not a list of strings.");
  return v as string[];
}

/** Metadata arrives as a JSON string (the schema's JSONString) or, from some servers, an object. */
function parseMetadata(v: unknown): Record<string, unknown> | null {
  const parsed = jsonStringValue(v);
  return isObject(parsed) ? parsed : null;
}
