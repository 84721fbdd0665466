import { describe, expect, expectTypeOf, it } from "vitest";
import type { Model, ModelList, ModelPermission } from "../../../src/wire/models/index.js";

describe("ModelList", () => {
  it("reads a hosted inference list (spec fields only)", () => {
    const body =
      '{"object":"list","data":[{"id":"OpenPipe/Qwen3-14B-Instruct","object":"model","created":0,"owned_by":"system","root":"OpenPipe/Qwen3-14B-Instruct"}]}';
    const list = JSON.parse(body) as ModelList;
    const [model] = list.data;
    expect(model?.id).toBe("OpenPipe/Qwen3-14B-Instruct");
    expect(model?.max_model_len).toBeUndefined();
    expectTypeOf(list.data).toEqualTypeOf<Model[]>();
    expectTypeOf<Model["object"]>().toEqualTypeOf<"model">();
    expectTypeOf<ModelList["object"]>().toEqualTypeOf<"list">();
  });

  it("types vLLM's extra model-card fields and keeps unknown ones", () => {
    const model = {
      id: "my-lora",
      object: "model",
      created: 1_742_300_000,
      owned_by: "vllm",
      root: "/adapters/my-lora",
      parent: "Qwen/Qwen3-8B",
      max_model_len: 32768,
      permission: [
        {
          id: "modelperm-abc",
          object: "model_permission",
          created: 1_742_300_000,
          allow_create_engine: false,
          allow_sampling: true,
          allow_logprobs: true,
          allow_search_indices: false,
          allow_view: true,
          allow_fine_tuning: false,
          organization: "*",
          group: null,
          is_blocking: false,
        },
      ],
      future_field: { any: "thing" },
    } satisfies Model;
    expectTypeOf(model.permission[0]).toExtend<ModelPermission | undefined>();
    expectTypeOf<Model["parent"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Model["max_model_len"]>().toEqualTypeOf<number | null | undefined>();
    expect(model.future_field.any).toBe("thing");
  });

  it("refuses a wrong object tag at compile time", () => {
    // @ts-expect-error: a list's object is "list"
    const wrong: ModelList = { object: "models", data: [] };
    expect(wrong.data).toEqual([]);
  });
});

describe("Model.root", () => {
  it("may be null, as vLLM sends it for some models", () => {
    const list = JSON.parse(
      '{"object":"list","data":[{"id":"m","object":"model","created":0,"owned_by":"vllm","root":null}]}',
    ) as ModelList;
    expect(list.data[0]!.root).toBeNull();
    expectTypeOf<Model["root"]>().toEqualTypeOf<string | null>();
  });
});
