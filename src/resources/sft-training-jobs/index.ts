// Transport-free parts of `client.sftTrainingJobs`: request schemas.
export {
  type SFTTrainingConfig,
  sftTrainingConfigSchema,
  type SFTTrainingJobCreateParams,
  sftTrainingJobCreateParamsSchema,
} from "./request-schema.js";
