// A Cloudflare Worker around the scenario: the test bundles it the way a deployment would
// and posts the config to it.
import { scenario } from "./scenario.mjs";

export default {
  async fetch(request) {
    try {
      return Response.json(await scenario(await request.json()));
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
