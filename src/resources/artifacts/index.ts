// `client.artifacts`: its types and errors, for users to import by name.
export type { ArtifactDownload } from "./download.js";
export { ArtifactDigestError, ArtifactNotFoundError, ArtifactUploadError, UnsafeArtifactPathError } from "./errors.js";
export { StorageRequestError } from "./storage.js";
export type * from "./types.js";
