// MD5 as W&B names content (wandb/wandb `wandb/sdk/lib/hashutil.py`). Node's own hash here; the browser
// build takes md5.browser.ts (no node:crypto there, and WebCrypto has no MD5).
import { createHash } from "node:crypto";

/** An MD5 fed piece by piece, so a file of any size is hashed in constant memory. */
export interface Md5 {
  update(bytes: Uint8Array): void;
  /** The 16 digest bytes; the hash is spent afterwards. */
  digest(): Uint8Array;
}

/** A new incremental MD5. */
export function createMd5(): Md5 {
  const hash = createHash("md5");
  return {
    update: (bytes) => void hash.update(bytes),
    digest: () => new Uint8Array(hash.digest()),
  };
}
