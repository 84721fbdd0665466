// `client.loras`: its types and the base-model table, for users to import by name.
export { LORA_BASE_MODELS } from "./base-models.js";
export type * from "./types.js";
