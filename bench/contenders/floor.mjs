// The raw floor: the least work any client must do to offer the same interface. undici.request
// (the same HTTP stack inferloop uses in Node), JSON.parse, and minimal splitters written as
// async generators, so the consumer gets each chunk or record through `for await` exactly as
// an SDK user does. The splitters handle only the framing the bench server sends (no CRLF,
// comments, multi-line data, BOM), and there are no retries, validation or error mapping: a
// real client needs those, so the floor is a lower bound, not an alternative.
import { createParser } from "eventsource-parser";
import { request } from "undici";
import { logprobSum } from "./inferloop.mjs";

const AUTH_BEARER = "Bearer bench-key";
const AUTH_BASIC = `Basic ${Buffer.from("api:bench-key").toString("base64")}`;

// Both splitters search only the newly decoded text and carry over just the unfinished tail,
// the cheapest way to split in JS (no re-scan, no copy of the whole buffer per chunk).

/** `data: <json>\n\n` events until `data: [DONE]`. */
export async function* sseJSON(body) {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of body) {
    const text = rest + decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end; (end = text.indexOf("\n\n", start)) !== -1; start = end + 2) {
      const data = text.slice(start + 6, end); // after "data: "
      if (data === "[DONE]") return;
      yield JSON.parse(data);
    }
    rest = text.slice(start);
  }
  throw new Error("stream ended without [DONE]");
}

/** One JSON value per `\n`-terminated line. */
async function* jsonLines(body) {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of body) {
    const text = decoder.decode(bytes, { stream: true });
    let nl = text.indexOf("\n");
    if (nl === -1) {
      rest += text;
      continue;
    }
    yield JSON.parse(rest + text.slice(0, nl));
    let start = nl + 1;
    for (; (nl = text.indexOf("\n", start)) !== -1; start = nl + 1) yield JSON.parse(text.slice(start, nl));
    rest = text.slice(start);
  }
}

/** The rollout floor's reading of one stream (bytes in any chunking) into a kept trajectory. */
export async function readRollout(body, messages) {
  const decoder = new TextDecoder();
  let done = false;
  let content = "";
  let promptIds = null;
  let finish = null;
  let stop = null;
  const entries = [];
  const ids = [];
  const parser = createParser({
    onEvent(e) {
      if (e.data === "[DONE]") {
        done = true;
        return;
      }
      const chunk = JSON.parse(e.data);
      if (chunk.prompt_token_ids) promptIds = chunk.prompt_token_ids;
      const c = chunk.choices[0];
      if (c === undefined) return;
      if (c.delta.content) content += c.delta.content;
      const lp = c.logprobs?.content;
      if (lp) for (let i = 0; i < lp.length; i++) entries.push(lp[i]);
      const t = c.token_ids;
      if (t) for (let i = 0; i < t.length; i++) ids.push(t[i]);
      if (c.finish_reason) {
        finish = c.finish_reason;
        stop = c.stop_reason ?? null;
      }
    },
  });
  for await (const bytes of body) parser.feed(decoder.decode(bytes, { stream: true }));
  if (!done) throw new Error("stream ended without [DONE]");
  const choice = {
    index: 0,
    message: { role: "assistant", content },
    logprobs: { content: entries },
    finish_reason: finish,
    stop_reason: stop,
    token_ids: ids,
  };
  const keep = { messages_and_choices: [...messages, choice], prompt_token_ids: promptIds, reward: undefined };
  return {
    keep,
    content: content.length,
    entries: entries.length,
    top: entries[0].top_logprobs.length,
    ids: ids.length,
  };
}

export async function createContender(url) {
  const post = async (path, auth, body) => {
    const res = await request(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: auth },
      body: JSON.stringify(body),
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    return res.body;
  };

  return {
    async chat(params) {
      const body = await post("/v1/chat/completions", AUTH_BEARER, params);
      return JSON.parse(await body.text());
    },

    async stream(params, onChunk) {
      const body = await post("/v1/chat/completions", AUTH_BEARER, { ...params, stream: true });
      try {
        for await (const chunk of sseJSON(body)) onChunk(chunk);
      } finally {
        body.destroy();
      }
    },

    // The rollout floor: eventsource-parser over the decoded text and JSON.parse per event,
    // keeping what a trainer needs (content, every logprob entry, the token ids, the prompt's
    // ids, finish and stop reasons) in a plain trajectory object.
    async rollout(params) {
      const body = await post("/v1/chat/completions", AUTH_BEARER, { ...params, stream: true });
      try {
        return await readRollout(body, params.messages);
      } finally {
        body.destroy();
      }
    },
    async readLogprobs(params) {
      const r = await this.rollout(params);
      return { ...r, sum: logprobSum(r.keep.messages_and_choices.at(-1)) };
    },

    async train(params) {
      const body = await post("/v1/preview/training-jobs", AUTH_BEARER, params);
      return JSON.parse(await body.text());
    },

    // Same paging rule as the SDK (and Weave's own clients): pages of `pageSize` from offset 0,
    // stop at the first short page.
    async query(projectId, pageSize, onRecord) {
      for (let offset = 0; ; offset += pageSize) {
        const body = await post("/calls/stream_query", AUTH_BASIC, { project_id: projectId, limit: pageSize, offset });
        let n = 0;
        for await (const record of jsonLines(body)) {
          onRecord(record);
          n++;
        }
        if (n < pageSize) return;
      }
    },
  };
}
