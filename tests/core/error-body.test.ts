import { describe, expect, it } from "vitest";
import { parseErrorBody } from "../../src/core/errors/error-body.js";
import {
  APIError,
  AuthenticationError,
  apiErrorFor,
  BadRequestError,
  ConflictError,
  InferloopError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../../src/core/errors/errors.js";

const json = (status: number, body: unknown) => parseErrorBody(status, JSON.stringify(body), "application/json");

describe("parseErrorBody: message from each error envelope", () => {
  it("reads the OpenAI/vLLM envelope {error:{message,type,param,code}}", () => {
    const body = { error: { message: "model not found", type: "NotFoundError", param: "model", code: 404 } };
    const p = json(404, body);
    expect(p.message).toBe("404 model not found");
    expect(p.type).toBe("NotFoundError");
    expect(p.param).toBe("model");
    expect(p.code).toBe(404);
    expect(p.body).toEqual(body);
  });

  it("keeps a null param and a string code", () => {
    const p = json(400, { error: { message: "bad", type: "invalid_request_error", param: null, code: "bad_seed" } });
    expect(p.param).toBeNull();
    expect(p.code).toBe("bad_seed");
  });

  it("reads the flat vLLM envelope {object:'error',message,type,param,code}", () => {
    const p = json(400, {
      object: "error",
      message: "seed out of range",
      type: "BadRequestError",
      param: "seed",
      code: 400,
    });
    expect(p.message).toBe("400 seed out of range");
    expect(p.type).toBe("BadRequestError");
    expect(p.param).toBe("seed");
    expect(p.code).toBe(400);
  });

  it("reads a FastAPI validation list {detail:[{loc,msg,type}]} into message and detail", () => {
    const detail = [
      { loc: ["body", "model_id"], msg: "Input should be a valid UUID", type: "uuid_parsing", input: "x" },
      { loc: ["body", "trajectory_groups", 0], msg: "Field required", type: "missing" },
    ];
    const p = json(422, { detail });
    expect(p.message).toBe("422 body.model_id: Input should be a valid UUID; body.trajectory_groups.0: Field required");
    expect(p.detail).toEqual(detail); // unknown keys such as `input` are kept
  });

  it("keeps `detail` on the 422 error built by apiErrorFor", () => {
    const detail = [{ loc: ["query", "limit"], msg: "must be >= 1", type: "greater_than_equal" }];
    const err = apiErrorFor({ ...json(422, { detail }), headers: new Headers() });
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect((err as UnprocessableEntityError).detail).toEqual(detail);
    expect(err.message).toBe("422 query.limit: must be >= 1");
  });

  it("gives a 422 without a detail list an empty detail", () => {
    const err = apiErrorFor({ ...json(422, { detail: "no" }), headers: new Headers() }) as UnprocessableEntityError;
    expect(err.detail).toEqual([]);
  });

  it("reads {detail:'...'}", () => {
    expect(json(404, { detail: "Queue item not found" }).message).toBe("404 Queue item not found");
  });

  it("reads the trace server's {reason:'...'}", () => {
    expect(json(403, { reason: "Permission denied for project acme/bot" }).message).toBe(
      "403 Permission denied for project acme/bot",
    );
  });

  it("reads {error:'...'} given as a bare string", () => {
    expect(json(401, { error: "invalid api key" }).message).toBe("401 invalid api key");
  });

  it("falls back to the status text for JSON without a message", () => {
    const p = json(503, { something: 1 });
    expect(p.message).toBe("503 Service Unavailable");
    expect(p.body).toEqual({ something: 1 });
  });

  it("uses plain text as the message", () => {
    const p = parseErrorBody(502, "upstream connect error\n", "text/plain");
    expect(p.message).toBe("502 upstream connect error");
    expect(p.body).toBe("upstream connect error");
  });

  it("cuts long plain text short in message and body", () => {
    const text = "x".repeat(10_000);
    const p = parseErrorBody(500, text, "text/plain");
    expect(p.message.length).toBeLessThan(600);
    expect(p.message.startsWith("500 xxx")).toBe(true);
    expect(String(p.body).length).toBeLessThan(600);
  });

  it("treats broken JSON as text", () => {
    const p = parseErrorBody(500, '{"error": {"message": "trunc', "application/json");
    expect(p.message).toBe('500 {"error": {"message": "trunc');
  });

  it("reduces an HTML proxy page to a short message with its title, without the page", () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>${"<p>filler</p>".repeat(500)}<script>secretStuff()</script></body></html>`;
    const p = parseErrorBody(502, page, "text/html; charset=utf-8");
    expect(p.message).toContain("502 Bad Gateway");
    expect(p.message).toMatch(/HTML error page/);
    expect(p.message).not.toContain("<");
    expect(p.message).not.toContain("filler");
    expect(p.message.length).toBeLessThan(200);
    expect(String(p.body).length).toBeLessThanOrEqual(500);
  });

  it("recognises an HTML page by its start even without an HTML content type", () => {
    const p = parseErrorBody(
      504,
      "<html><head><title>Gateway Timeout</title></head><body>...</body></html>",
      undefined,
    );
    expect(p.message).toContain("Gateway Timeout");
    expect(p.message).not.toContain("<html");
  });

  it("gives the status text for an empty body", () => {
    const p = parseErrorBody(500, "", undefined);
    expect(p.message).toBe("500 Internal Server Error");
    expect(p.body).toBeUndefined();
    expect(parseErrorBody(429, "   \n", "text/plain").message).toBe("429 Too Many Requests");
  });
});

describe("apiErrorFor: status → error class", () => {
  const cases: [number, new (...a: never[]) => APIError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ];
  for (const [status, cls] of cases) {
    it(`${status} → ${cls.name}`, () => {
      const err = apiErrorFor({
        status,
        headers: new Headers({ "x-request-id": "req_1" }),
        body: null,
        message: `${status} x`,
      });
      expect(err).toBeInstanceOf(cls);
      expect(err).toBeInstanceOf(APIError);
      expect(err).toBeInstanceOf(InferloopError);
      expect(err.status).toBe(status);
      expect(err.requestId).toBe("req_1");
      expect(err.name).toBe(cls.name);
    });
  }

  it("418 → a plain APIError (no subclass)", () => {
    const err = apiErrorFor({ status: 418, headers: new Headers(), body: "teapot", message: "418 teapot" });
    expect(err.constructor).toBe(APIError);
    expect(err.status).toBe(418);
    expect(err.requestId).toBeUndefined();
  });

  it("429 carries retryAfter when given", () => {
    const err = apiErrorFor({ status: 429, headers: new Headers(), body: null, message: "429", retryAfter: 1500 });
    expect((err as RateLimitError).retryAfter).toBe(1500);
  });
});

describe("parseErrorBody: hostile bodies", () => {
  it("finds an HTML title among tags that only look like one", () => {
    const page = "<html><head><titles>no</titles><title lang=en>\n 504 Gateway Time-out </title></head></html>";
    expect(parseErrorBody(504, page, "text/html").message).toBe(
      "504 Gateway Timeout (an HTML error page, likely from a proxy or gateway: 504 Gateway Time-out)",
    );
    expect(parseErrorBody(502, "<html><title>a<b>c</b></title>", "text/html").message).toBe(
      "502 Bad Gateway (an HTML error page, likely from a proxy or gateway)",
    );
    expect(parseErrorBody(502, "<html><title>never closed", "text/html").message).toBe(
      "502 Bad Gateway (an HTML error page, likely from a proxy or gateway)",
    );
  });

  it("keeps only names and indices in a detail loc, and only text as its msg", () => {
    const p = json(422, { detail: [{ loc: ["body", [["deep"]], 0, { x: 1 }], msg: [["x"]], type: "t" }] });
    expect(p.detail).toEqual([{ loc: ["body", 0], msg: "", type: "t" }]);
  });

  it("reads the message of a JSON envelope cut off at the read limit", () => {
    const cut = `{"error":{"message":"prompt is too \\"long\\"","type":"BadRequestError","nested":${"[".repeat(70_000)}`;
    const p = parseErrorBody(400, cut, "application/json");
    expect(p.message).toBe('400 prompt is too "long"');
    expect(p.message.length).toBeLessThan(300);
  });
});
