// Response types of `client.models.list()`. Unknown members are kept (index signatures).

/**
 * One permission record of a vLLM model card. Other servers leave `permission` out.
 */
export interface ModelPermission {
  id?: string;
  object?: string;
  created?: number;
  allow_create_engine?: boolean;
  allow_sampling?: boolean;
  allow_logprobs?: boolean;
  allow_search_indices?: boolean;
  allow_view?: boolean;
  allow_fine_tuning?: boolean;
  organization?: string;
  group?: string | null;
  is_blocking?: boolean;
  [key: string]: unknown;
}

/**
 * A model that can be addressed by `model` in a chat completion.
 */
export interface Model {
  id: string;
  object: "model";
  /** Unix seconds; some servers send 0. */
  created: number;
  owned_by: string;
  /** The base model (for a LoRA adapter, the model it sits on); vLLM may send `null`. */
  root: string | null;
  /** vLLM: the model this one derives from, or null. */
  parent?: string | null;
  /** vLLM: the context length in tokens. */
  max_model_len?: number | null;
  /** vLLM only. */
  permission?: ModelPermission[];
  [key: string]: unknown;
}

/**
 * The response of `client.models.list()`.
 */
export interface ModelList {
  object: "list";
  data: Model[];
  [key: string]: unknown;
}
