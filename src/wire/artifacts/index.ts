// `client.artifacts`: its types and errors, for users to import by name.
export { ArtifactDigestError, ArtifactNotFoundError, ArtifactUploadError, UnsafeArtifactPathError } from "./errors.js";
export type * from "./types.js";
