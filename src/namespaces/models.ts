import { RequestValidationError } from "../core/errors/errors.js";
import { APIPromise } from "../core/pipeline/api-promise.js";
import { callEndpoint } from "../core/pipeline/endpoint.js";
import { hasControlCharacter, isLatin1 } from "../core/pipeline/header-values.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import { modelsList } from "../wire/models/endpoints.js";
import type { ModelList } from "../wire/models/types.js";

const PROJECT = /^[^/\s]+\/[^/\s]+$/;

/** Options of {@link Models.list}: the usual request options plus a per-call project. */
export interface ModelListOptions extends RequestOptions {
  /** `"<team>/<project>"` for the `Client-Project` and `OpenAI-Project` headers; overrides the client's `project`. */
  project?: string | undefined;
}

/**
 * The models the service can address (`GET /v1/models`, Bearer auth).
 */
export class Models extends APIResource {
  /**
   * List the models. Sends the project as both `Client-Project` (the spec's header) and
   * `OpenAI-Project` (the one W&B Inference reads), with the same value, when a project is set
   * on the client or in `options`.
   *
   * @example
   * ```ts
   * const { data } = await client.models.list();
   * for (const m of data) console.log(m.id, m.owned_by);
   * ```
   */
  list(options?: ModelListOptions): APIPromise<ModelList> {
    const project = options?.project ?? this._http.config.project;
    const problem =
      project === undefined
        ? undefined
        : hasControlCharacter(project)
          ? "contains a control character (NUL, CR, LF, DEL or another below U+0020), which a header cannot carry: remove it"
          : !PROJECT.test(project)
            ? 'must be "<team>/<project>"'
            : !isLatin1(project)
              ? "contains characters outside Latin-1 (ISO-8859-1), which a header cannot carry: use the project's ASCII name"
              : undefined;
    if (problem !== undefined) {
      const issue = { path: "project", message: problem };
      return APIPromise._refused(new RequestValidationError([issue], `${modelsList.operation} request`));
    }
    const headers = { "content-type": "application/json", "client-project": project, "openai-project": project };
    return callEndpoint(this._http, modelsList, { headers }, options);
  }
}
