import { APIResource } from "../../core/resource.js";
import { Completions } from "./completions.js";

/** Chat generation. */
export class Chat extends APIResource {
  /** Chat completions, plain and streamed. */
  readonly completions: Completions = new Completions(this._http);
}
