import { InferloopError } from "../../core/errors/errors.js";

/**
 * A file could not be uploaded to the storage URL W&B handed out, after retries and fresh URLs.
 * Nothing was committed: the artifact version does not exist.
 */
export class ArtifactUploadError extends InferloopError {
  override name = "ArtifactUploadError";
  /** The path inside the artifact. */
  readonly file: string;
  constructor(file: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.file = file;
  }
}

/**
 * A downloaded file's MD5 differs from the digest in the artifact's manifest; its partial file
 * was removed.
 */
export class ArtifactDigestError extends InferloopError {
  override name = "ArtifactDigestError";
  readonly file: string;
  readonly expected: string;
  readonly actual: string;
  constructor(file: string, expected: string, actual: string, size?: { expected: number; actual: number }) {
    const sizes = size && size.expected !== size.actual ? ` (${size.actual} bytes, expected ${size.expected})` : "";
    super(
      `${file}: the downloaded content's MD5 is ${actual}, the manifest says ${expected}${sizes}; the file was not kept.`,
    );
    this.file = file;
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * An artifact's manifest names a file outside the download directory (an absolute path or a
 * `..` segment); nothing was written.
 */
export class UnsafeArtifactPathError extends InferloopError {
  override name = "UnsafeArtifactPathError";
  readonly path: string;
  constructor(path: string) {
    super(
      `The artifact's manifest names the file ${JSON.stringify(path)}, which would be written outside the download directory; nothing was written.`,
    );
    this.path = path;
  }
}

/**
 * No artifact answers to the name and alias (`entity/project/name:alias`).
 */
export class ArtifactNotFoundError extends InferloopError {
  override name = "ArtifactNotFoundError";
  readonly ref: string;
  constructor(ref: string, detail = "") {
    super(`No artifact ${ref}${detail}.`);
    this.ref = ref;
  }
}
