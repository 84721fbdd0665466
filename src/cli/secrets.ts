// The command never prints a credential of the environment. The SDK already keeps them out of
// its errors and logs; this also covers what the command writes itself (errors of Node or of
// the file system included), as the key and the Basic credentials built from it.

const SECRET_VARIABLES = ["INFERLOOP_API_KEY", "WANDB_API_KEY", "INFERLOOP_PASSWORD"] as const;

/** Replaces every credential of `env` (and its Basic-auth encodings) in a text with `[redacted]`. */
export function secretRedactor(env: Readonly<Record<string, string | undefined>>): (text: string) => string {
  const raw = SECRET_VARIABLES.map((name) => env[name]?.trim()).filter((v): v is string => !!v);
  const username = env["INFERLOOP_USERNAME"]?.trim() || "api";
  const encoded = raw
    .flatMap((secret) => [`api:${secret}`, `${username}:${secret}`])
    .map((pair) => Buffer.from(pair).toString("base64"));
  // Longest first, so a secret that contains another is replaced whole.
  const secrets = [...new Set([...raw, ...encoded])].sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) out = out.split(secret).join("[redacted]");
    return out;
  };
}
