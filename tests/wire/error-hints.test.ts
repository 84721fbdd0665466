/**
 * Errors that name the fix, on the wire (msw): a chat answered "model not found" (vLLM's 404,
 * vllm entrypoints/openai/engine/serving.py `_check_model`) gets the closest names of
 * `models.list()` or a trained model's newest step, with one extra request at most, sent only on
 * that error, its own failure ignored; a 401 of W&B's hosts says where a W&B key is found.
 */
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { AuthenticationError, NotFoundError } from "../../src/index.js";
import { BASE, chatParams, chatReply, makeClient, useMsw } from "../core/msw-setup.js";
import { caught } from "../integration/helpers.js";

const { server, seen } = useMsw();
const WANDB = "https://api.wandb.test";
const client = () => makeClient({ wandbBaseURL: WANDB, maxRetries: 2 });
const notFound = (model: string) =>
  HttpResponse.json(
    { error: { message: `The model \`${model}\` does not exist.`, type: "NotFoundError", param: "model", code: 404 } },
    { status: 404 },
  );
const served = ["Qwen/Qwen3-8B", "Qwen/Qwen3-4B", "meta-llama/Llama-3.1-8B-Instruct"];

function chatAnswers(model = "m") {
  server.use(http.post(`${BASE}/v1/chat/completions`, () => notFound(model)));
}
const list = () =>
  server.use(
    http.get(`${BASE}/v1/models`, () =>
      HttpResponse.json({
        object: "list",
        data: served.map((id) => ({ id, object: "model", created: 0, owned_by: "x" })),
      }),
    ),
  );
const paths = () => seen.map((s) => `${s.method} ${s.url.pathname}`);

describe("a model the server does not know", () => {
  it("adds the closest served names, after one request to the model list", async () => {
    chatAnswers("Qwen/Qwen3-8b");
    list();
    const err = await caught(() => client().chat.completions.create({ ...chatParams, model: "Qwen/Qwen3-8b" }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(
      '404 The model `Qwen/Qwen3-8b` does not exist. (did you mean "Qwen/Qwen3-8B" or "Qwen/Qwen3-4B"?)',
    );
    expect(paths()).toEqual(["POST /v1/chat/completions", "GET /v1/models"]);
  });

  it("finds the name without its organisation, and says nothing when no name is near", async () => {
    chatAnswers();
    list();
    const short = await caught(() =>
      client().chat.completions.create({ ...chatParams, model: "Llama-3.1-8B-Instruct" }),
    );
    expect((short as Error).message).toContain('(did you mean "meta-llama/Llama-3.1-8B-Instruct"?)');
    const far = await caught(() => client().chat.completions.create({ ...chatParams, model: "mistral/Large-2" }));
    expect((far as Error).message).toBe("404 The model `m` does not exist.");
  });

  it("ignores a model list that fails, and never retries it or looks up again", async () => {
    chatAnswers();
    server.use(http.get(`${BASE}/v1/models`, () => HttpResponse.json({ error: { message: "down" } }, { status: 503 })));
    const err = await caught(() => client().chat.completions.create(chatParams));
    expect((err as Error).message).toBe("404 The model `m` does not exist.");
    expect(paths()).toEqual(["POST /v1/chat/completions", "GET /v1/models"]);
  });

  it("is asked for a streamed call too, and for no other error or success", async () => {
    chatAnswers("Qwen/Qwen3-8b");
    list();
    const err = await caught(() =>
      client().chat.completions.create({ ...chatParams, model: "Qwen/Qwen3-8b", stream: true }),
    );
    expect((err as Error).message).toContain('did you mean "Qwen/Qwen3-8B"');
    seen.length = 0;
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.json({ detail: "Not Found" }, { status: 404 })),
    );
    await caught(() => client().chat.completions.create(chatParams));
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.json(chatReply)));
    await client().chat.completions.create(chatParams);
    expect(paths()).toEqual(["POST /v1/chat/completions", "POST /v1/chat/completions"]);
  });

  it("names a trained model's newest step, from its latest `lora` version on W&B", async () => {
    const name = "wandb-artifact:///acme/rl/agent:step99";
    chatAnswers(name);
    const asked: unknown[] = [];
    server.use(
      http.post(`${WANDB}/graphql`, async ({ request }) => {
        asked.push(((await request.json()) as { variables: unknown }).variables);
        return HttpResponse.json({
          data: {
            project: {
              artifactCollectionMembership: {
                versionIndex: 6,
                aliases: [{ alias: "step7" }, { alias: "latest" }],
                artifact: { id: "a", artifactType: { name: "lora" }, state: "COMMITTED", digest: "d" },
              },
            },
          },
        });
      }),
    );
    const err = await caught(() => client().chat.completions.create({ ...chatParams, model: name }));
    expect((err as Error).message).toBe(
      `404 The model \`${name}\` does not exist. (the newest step of acme/rl/agent is 7: wandb-artifact:///acme/rl/agent:step7)`,
    );
    expect(asked).toEqual([{ entity: "acme", project: "rl", name: "agent:latest" }]);
    expect(paths()).toEqual(["POST /v1/chat/completions", "POST /graphql"]);
  });
});

describe("a 401 of W&B's hosts", () => {
  it("names the key's source, how to set it, and where W&B keys are", async () => {
    const inference = "https://api.inference.wandb.ai";
    server.use(http.get(`${inference}/v1/models`, () => HttpResponse.json({ detail: "bad key" }, { status: 401 })));
    const err = await caught(() => makeClient({ baseURL: inference }).models.list());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toBe(
      "401 bad key (sent: Bearer `apiKey` from the `apiKey` option; to fix: pass the right key as `apiKey`; W&B API keys are at https://wandb.ai/authorize)",
    );
  });
});
