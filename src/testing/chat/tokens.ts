/**
 * The fake's tokenizer: one token per word-piece, a word with its leading space cut every 6
 * letters, digits and punctuation single tokens; a token's id is 100 + hash(piece) mod 150000.
 * Chat counts and streams these tokens, and an SFT job counts its rows' tokens with them.
 */
import { hash32 } from "../util.js";

/**
 * Splits text into word-piece tokens whose concatenation is the text.
 *
 * @example
 * ```ts
 * tokenize("Hello world."); // ["Hello", " world", "."]
 * ```
 */
export function tokenize(text: string): string[] {
  return text.match(/\s?[A-Za-z]{1,6}|\s?\d|\s?[^\sA-Za-z\d]|\s+/gu) ?? [];
}

/**
 * The id of a token piece.
 *
 * @example
 * ```ts
 * tokenId(" world"); // a stable integer >= 100
 * ```
 */
export function tokenId(piece: string): number {
  return 100 + (hash32(piece) % 150_000);
}
