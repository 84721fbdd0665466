// Browser and edge build of `token-entry-copy.ts`: no copier, so token entries take the generic
// copy (the same copy, slower), and a chat-only bundle carries none of its code. Jobs large
// enough for it to matter are built in Node.
import type { tokenEntryCopier as TokenEntryCopier } from "./token-entry-copy.js";

export const tokenEntryCopier: typeof TokenEntryCopier | undefined = undefined;
