/**
 * W&B artifact cases shared by the SDK's tests (tests/wire/artifacts-wire.test.ts) and the
 * fake's (tests/testing/artifacts.test.ts): digests as W&B computes them, and artifact inputs
 * W&B (its server, or its clients before they send) accepts or refuses. Each row names its source.
 */

/** The bytes of `content` (a string is UTF-8). */
export function bytesOf(content: string | number[]): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : new Uint8Array(content);
}

/**
 * Files with their digests (padded base64 MD5) and the artifact's digest (hex MD5 of
 * `wandb-artifact-manifest-v1\n` then `path:digest\n` per file sorted by path), computed with
 * Python's hashlib by the formula of wandb `sdk/artifacts/artifact_manifests/artifact_manifest_v1.py`
 * (`ArtifactManifestV1.digest`) and `sdk/lib/hashutil.py` (`md5_file_b64`).
 */
export const DIGEST_CASES = [
  {
    source: "wandb artifact_manifest_v1.py digest(); hashlib",
    files: [
      { name: "train.jsonl", content: '{"messages":[]}\n', digest: "IHmZBXrwFVaoFoFwDaLWpg==" },
      { name: "b/weights.bin", content: Array.from({ length: 256 }, (_, i) => i), digest: "4shl20Fivtljv6qe9qwY8A==" },
      { name: "été.txt", content: "café", digest: "BxF/5KHr1USWXcGVcxg9og==" },
    ],
    manifestDigest: "636e6d7319491f6fd638911981e70bda",
  },
  {
    source: "RFC 1321 test vectors, base64 as wandb hashutil.py writes them",
    files: [
      { name: "empty", content: "", digest: "1B2M2Y8AsgTpgAmY7PhCfg==" },
      { name: "hello", content: "hello", digest: "XUFAKrxLKna5cZ2REBfFkg==" },
    ],
    manifestDigest: undefined,
  },
] as const;

/** An artifact input and what W&B does with it. `sdk`: what inferloop does before sending;
 * `server`: what W&B's createArtifact answers (`unknown` when no source says). */
export interface ArtifactInputCase {
  name: string;
  source: string;
  input: { name: string; type: string; aliases?: string[]; fileName?: string };
  sdk: "accept" | "refuse";
  /** With `sdk: "refuse"`: the field the refusal names. */
  field?: string;
  server: "accept" | "refuse" | "unknown";
}

export const ARTIFACT_INPUT_CASES: readonly ArtifactInputCase[] = [
  {
    name: "a dataset as ART names it",
    source: "ART serverless backend: {model}-sft-data-{uuid hex[:12]}, type dataset",
    input: { name: "agent-sft-data-0123456789ab", type: "dataset" },
    sdk: "accept",
    server: "accept",
  },
  {
    name: "a name with a slash",
    source: "wandb _validators.py INVALID_ARTIFACT_NAME_CHARS; the server keys collections by name",
    input: { name: "a/b", type: "dataset" },
    sdk: "refuse",
    field: "name",
    server: "refuse",
  },
  {
    name: "a name longer than 128 characters",
    source: "wandb _validators.py NAME_MAXLEN = 128",
    input: { name: "n".repeat(129), type: "dataset" },
    sdk: "refuse",
    field: "name",
    server: "refuse",
  },
  {
    name: "an alias with a colon",
    source: "wandb _validators.py validate_aliases (ARTIFACT_SEP_CHARS)",
    input: { name: "data", type: "dataset", aliases: ["best:1"] },
    sdk: "refuse",
    field: "aliases.0",
    server: "refuse",
  },
  {
    name: "a reserved wandb- type",
    source: "wandb _validators.py validate_artifact_type (RESERVED_ARTIFACT_TYPE_PREFIX)",
    input: { name: "data", type: "wandb-history" },
    sdk: "refuse",
    field: "type",
    server: "unknown",
  },
  {
    name: "a file path with ..",
    source:
      "W&B stores it (wandb/wandb `wandb/sdk/artifacts/artifact.py`, `download`), but its clients refuse to download it (wandb #11735, #12516)",
    input: { name: "data", type: "dataset", fileName: "../up.txt" },
    sdk: "refuse",
    field: "files.0.name",
    server: "unknown",
  },
  {
    name: "an absolute file path",
    source: "as for .. (wandb #11735)",
    input: { name: "data", type: "dataset", fileName: "/etc/passwd" },
    sdk: "refuse",
    field: "files.0.name",
    server: "unknown",
  },
];

/**
 * Multipart uploads: a file split into parts of `partSize` bytes. `sdk`: what
 * `client.artifacts.upload({ multipart: { threshold: 1, partSize } })` does before sending;
 * `server`: what storage does when the parts are completed (the fake checks as S3 does).
 */
export interface MultipartCase {
  name: string;
  source: string;
  fileSize: number;
  partSize: number;
  sdk: "accept" | "refuse";
  /** With `sdk: "refuse"`: the field the refusal names. */
  field?: string;
  server: "accept" | "refuse";
  /** The parts the file makes. */
  parts: number;
}

const MiB = 1024 * 1024;

export const MULTIPART_CASES: readonly MultipartCase[] = [
  {
    name: "parts of 5 MiB, the last one smaller",
    source:
      "S3 multipart limits (parts of 5 MiB to 5 GiB, the last may be smaller); wandb multipart.go splits by part size",
    fileSize: 11 * MiB + 3,
    partSize: 5 * MiB,
    sdk: "accept",
    server: "accept",
    parts: 3,
  },
  {
    name: "a file that is a whole number of parts",
    source: "wandb multipart.go: numParts = size / chunk, one more only for a remainder",
    fileSize: 10 * MiB,
    partSize: 5 * MiB,
    sdk: "accept",
    server: "accept",
    parts: 2,
  },
  {
    name: "parts under 5 MiB before the last",
    source: "S3 CompleteMultipartUpload: EntityTooSmall",
    fileSize: 2 * MiB + 1,
    partSize: MiB,
    sdk: "refuse",
    field: "multipart.partSize",
    server: "refuse",
    parts: 3,
  },
];
