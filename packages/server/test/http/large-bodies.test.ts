import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** A `meta` value of about `bytes` of JSON: a chain `depth` levels deep, each level holding small leaves. */
function nestedMeta(bytes: number, depth: number): unknown {
  const perLevel = Math.floor(bytes / depth / 12);
  let node: Record<string, unknown> = { end: true };
  for (let d = 0; d < depth; d++) {
    const level: Record<string, unknown> = { next: node };
    for (let i = 0; i < perLevel; i++) level[`k${i}`] = i;
    node = level;
  }
  return node;
}

// Issue 24: large nested bodies within SOL_BODY_LIMIT, over a real socket.
/** A chain `depth` levels deep holding one long string: a large, deep body with few values. */
function deepText(chars: number, depth: number): unknown {
  let node: unknown = "x".repeat(chars);
  for (let d = 0; d < depth; d += 1) node = { n: node };
  return node;
}

describe("large and deep JSON bodies", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory", env: { SOL_BODY_LIMIT: "1048576" } });
  });
  afterAll(async () => s.close());

  it("parses a ~1 MiB body nested 120 levels deep, then refuses its oversized meta naming the field", async () => {
    const body = JSON.stringify({
      requestId: "big",
      threadId: "t-big",
      message: "hi",
      meta: { blob: deepText(1_000_000, 120) },
    });
    expect(body.length).toBeGreaterThan(900_000);
    expect(body.length).toBeLessThan(1_048_576);
    const r = await s.request("POST", "/v1/chat", body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_input");
    expect(r.json.error.details).toEqual([expect.objectContaining({ path: "meta" })]);
    // Small client facts still pass.
    const ok = await s.request("POST", "/v1/chat", {
      requestId: "big",
      threadId: "t-big",
      message: "hi",
      meta: { appVersion: "1.2.3", locale: "fr-FR", timezone: "Europe/Paris" },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses a ~1 MiB body one level too deep with a 400 that says so, brackets in strings not counted", async () => {
    const deep = JSON.stringify({
      requestId: "deep",
      threadId: "t-deep",
      message: "[[[[{{{{",
      meta: { blob: nestedMeta(1_040_000, 128) },
    });
    const r = await s.request("POST", "/v1/chat", deep);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_input");
    expect(r.json.error.message).toBe("The JSON body is nested more than 128 levels deep.");
    // The refused requestId was not used up: the same id with a shallow body runs.
    const ok = await s.request("POST", "/v1/chat", { requestId: "deep", threadId: "t-deep", message: "[[" });
    expect(ok.status).toBe(200);
  });

  it("refuses a body holding more values than SOL_BODY_MAX_VALUES before parsing it, naming the setting", async () => {
    const body = JSON.stringify({
      requestId: "many",
      threadId: "t-many",
      message: "hi",
      meta: { list: Array.from({ length: 60_000 }, (_, i) => i % 10) },
    });
    expect(body.length).toBeLessThan(1_048_576);
    const r = await s.request("POST", "/v1/chat", body);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain("more than 50000 values");
    expect(r.json.error.message).toContain("SOL_BODY_MAX_VALUES");
    const ok = await s.request("POST", "/v1/chat", { requestId: "many", threadId: "t-many", message: "hi" });
    expect(ok.status).toBe(200);
  });

  it("a body over the limit is still 413", async () => {
    const body = JSON.stringify({
      requestId: "huge",
      threadId: "t",
      message: "hi",
      meta: nestedMeta(1_200_000, 10),
    });
    const r = await s.request("POST", "/v1/chat", body);
    expect(r.status).toBe(413);
  });
});
