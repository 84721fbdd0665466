// Transport-free parts of `client.sftTrainingJobs`: request schemas.
export {
  type SFTTrainingConfig,
  type SFTTrainingJobCreateParams,
  sftTrainingConfigSchema,
  sftTrainingJobCreateParamsSchema,
} from "./request-schema.js";
