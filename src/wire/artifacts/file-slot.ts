// Its own module: the upload (operations.ts) asks for multipart fields that multipart.ts defines,
// and multipart.ts reads the slots the upload gets back.
/** One file's slot from `createArtifactFiles`: a null `uploadUrl` means W&B has the content. */
export interface FileSlot {
  uploadUrl: string | null;
  uploadHeaders: string[];
  /** The artifact that first stored this content (the manifest entry's `birthArtifactID`). */
  birthArtifactId: string;
  /** Where the content goes in storage (named again when a multipart upload is completed). */
  storagePath: string | null;
  /** For a file whose parts were announced: W&B's `uploadMultipartUrls`, read by multipart.ts. */
  uploadMultipartUrls: unknown;
}
