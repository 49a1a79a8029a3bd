import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("401 answers carry the Bearer challenge (RFC 9110 §11.6.1)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory", env: { SOL_API_KEYS: "acme:key-a" } });
  });
  afterAll(async () => {
    await s.close();
  });

  it("on api.md routes and on the facade, without a key and with a wrong one", async () => {
    for (const [method, path, headers] of [
      ["POST", "/v1/chat", {}],
      ["GET", "/v1/agency/counters", { authorization: "Bearer wrong" }],
      ["GET", "/v1/models", {}],
      ["POST", "/v1/chat/completions", { authorization: "Bearer wrong" }],
    ] as const) {
      const r = await s.request(method, path, method === "POST" ? {} : undefined, headers);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.headers.get("www-authenticate"), `${method} ${path}`).toMatch(/^Bearer\b/);
    }
  });

  it("not on other errors", async () => {
    const r = await s.request("GET", "/v1/nothing-here", undefined, { authorization: "Bearer key-a" });
    expect(r.status).toBe(404);
    expect(r.headers.get("www-authenticate")).toBeNull();
  });
});
