import { APIResource } from "../../core/resource.js";
import { Completions } from "./completions.js";

/**
 * Chat generation: `client.chat.completions`.
 *
 * @example
 * ```ts
 * const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Hi" }] });
 * ```
 */
export class Chat extends APIResource {
  /** Chat completions, plain and streamed. */
  readonly completions: Completions = new Completions(this._http);
}
