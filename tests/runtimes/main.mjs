// Entry for the runtimes that run a script (Bun, Deno): the config comes in as JSON in
// INFERLOOP_RUNTIME_CONFIG, the result goes out as one JSON line on stdout.
import { scenario } from "./scenario.mjs";

const env = globalThis.Deno ? globalThis.Deno.env.toObject() : globalThis.process.env;
const result = await scenario(JSON.parse(env.INFERLOOP_RUNTIME_CONFIG));
console.log(JSON.stringify({ resolved: import.meta.resolve("inferloop"), ...result }));
