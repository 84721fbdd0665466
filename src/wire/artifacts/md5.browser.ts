// The browser build's MD5 (see md5.ts): WebCrypto has no MD5, so a small audited one.
import { md5 } from "@noble/hashes/legacy.js";
import type { Md5 } from "./md5.js";

export type { Md5 } from "./md5.js";

/** A new incremental MD5. */
export function createMd5(): Md5 {
  const hash = md5.create();
  return {
    update: (bytes) => void hash.update(bytes),
    digest: () => hash.digest(),
  };
}
