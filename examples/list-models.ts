/**
 * List the models the service can address, with the response's status and request id.
 *
 *   npx tsx list-models.ts          (needs: npm install inferloop tsx)
 */
import { Inferloop } from "inferloop";
import { startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();

try {
  const { data: list, response } = await client.models.list().withResponse();
  console.log(`${list.data.length} models (HTTP ${response.status}, request id ${response.requestId ?? "none"}):`);
  for (const model of list.data) console.log(`  ${model.id}  owned by ${model.owned_by}`);
} finally {
  await fake?.close();
}
