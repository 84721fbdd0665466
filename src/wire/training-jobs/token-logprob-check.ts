// The rules of tokenLogprobSchema as a plain loop: a large job has millions of token entries,
// which zod would check through a schema run per entry, far more slowly (see tokenLogprobList
// in request-schema.ts).

function isByteList(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isSafeInteger(v[i])) return false;
  return true;
}

/** The rules of tokenLogprobSchema (of its `top_logprobs` entries when `withTop` is false). */
export function isTokenLogprob(e: unknown, withTop: boolean): boolean {
  if (typeof e !== "object" || e === null || Array.isArray(e)) return false;
  const entry = e as Record<string, unknown>;
  if (typeof entry["token"] !== "string" || !Number.isFinite(entry["logprob"]) || !isByteList(entry["bytes"]))
    return false;
  const top = entry["top_logprobs"];
  if (!withTop || top === undefined) return true;
  if (!Array.isArray(top)) return false;
  for (let i = 0; i < top.length; i++) if (!isTokenLogprob(top[i], false)) return false;
  return true;
}
