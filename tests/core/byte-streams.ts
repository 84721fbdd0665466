// Byte sources and a batch collector shared by the decoder tests.
const enc = new TextEncoder();

/** `text` as UTF-8, one byte per chunk. */
export async function* bytewise(text: string): AsyncGenerator<Uint8Array> {
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

/** One chunk per part: strings as UTF-8, byte arrays as they are. */
export async function* pieces(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === "string" ? enc.encode(p) : p;
}

/** Every item of a batched decoder, and the error it ended with, if any. */
export async function collect<T>(it: AsyncIterable<T[]>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const batch of it) items.push(...batch);
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}
