import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facadeClient } from "../support/openai-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

/** `GET /v1/models/{model}` for ids with a slash, as OpenAI-compatible servers often name models. */
describe("OpenAI facade: a configured model id with a slash", () => {
  let srv: TestServer;
  beforeAll(async () => {
    // The provider is never called here: listing models needs no upstream.
    srv = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_LLM: "openai", SOL_LLM_BASE_URL: "http://127.0.0.1:9/v1", SOL_LLM_MODEL: MODEL },
    });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("is listed and retrieved, by clients that encode the slash and by those that do not", async () => {
    const client = facadeClient(srv.url);
    expect((await client.models.list()).data.map((m) => m.id)).toContain(MODEL);
    expect((await client.models.retrieve(MODEL)).id).toBe(MODEL);
    const raw = await srv.request("GET", `/v1/models/${MODEL}`);
    expect(raw.status).toBe(200);
    expect(raw.json).toMatchObject({ id: MODEL, object: "model" });
  });

  it("answers an unknown id with a slash in OpenAI's 404", async () => {
    const raw = await srv.request("GET", "/v1/models/meta-llama/unknown");
    expect(raw.status).toBe(404);
    expect(raw.json.error).toMatchObject({ type: "not_found_error", param: "model" });
    // An id far longer than any model's is refused as the router refuses one without a slash.
    const long = await srv.request("GET", `/v1/models/org/${"m".repeat(3000)}`);
    expect(long.status).toBe(400);
    expect(long.json.error).toMatchObject({ type: "invalid_request_error", param: "model" });
  });
});
