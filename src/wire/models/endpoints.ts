import { endpoint } from "../../core/pipeline/endpoint.js";
import { readHaving } from "../../core/pipeline/read-body.js";
import type { ModelList } from "./types.js";

export const modelsList = endpoint({
  operation: "models.list",
  method: "GET",
  path: "/v1/models",
  service: "inference",
  retry: "safe",
  read: readHaving<ModelList>("data", "array"),
});
