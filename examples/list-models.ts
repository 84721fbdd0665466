/**
 * List the models the service can address, with the response's status and request id.
 *
 *   npx tsx examples/list-models.ts
 */
import { runExample } from "./_service.js";

await runExample(async ({ client }) => {
  const { data: list, response } = await client.models.list({ project: "acme/examples" }).withResponse();
  console.log(`${list.data.length} models (HTTP ${response.status}, request id ${response.requestId ?? "none"}):`);
  for (const model of list.data) console.log(`  ${model.id}  owned by ${model.owned_by}`);
});
