import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("If-Match compares memento ETags strongly: character by character", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it('"v01" is not the tag "v1", so a PUT with it is 412 and changes nothing', async () => {
    const turn = await s.request("POST", "/v1/chat", {
      requestId: "etag-1",
      threadId: "etag",
      message: "I need to plan my week.",
    });
    expect(turn.status).toBe(200);
    const got = await s.request("GET", "/v1/threads/etag/memento");
    expect(got.headers.get("etag")).toBe('"v1"');
    for (const tag of ['"v01"', '"v001"', '"v01", "v7"']) {
      const put = await s.request(
        "PUT",
        "/v1/threads/etag/memento",
        { ...got.json, arc: "x" },
        { "if-match": tag },
      );
      expect(put.status, tag).toBe(412);
    }
    const put = await s.request(
      "PUT",
      "/v1/threads/etag/memento",
      { ...got.json, arc: "y" },
      { "if-match": '"v1"' },
    );
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toBe('"v2"');
  });
});

describe("PUT /v1/threads/:threadId/memento without If-Match", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it("is 428 whatever the body holds (api.md §3: 428 without If-Match)", async () => {
    for (const body of [{}, { arc: "only an arc" }, []]) {
      const put = await s.request("PUT", "/v1/threads/no-cond/memento", body);
      expect(put.status, JSON.stringify(body)).toBe(428);
      expect(put.json.error.code).toBe("precondition_required");
    }
    // With the condition, the same bodies are 400 naming the bad fields.
    const withTag = await s.request("PUT", "/v1/threads/no-cond/memento", {}, { "if-match": '"v1"' });
    expect(withTag.status).toBe(400);
    expect(withTag.json.error.details.length).toBeGreaterThan(0);
  });
});

describe("If-Match: * (or a list of tags) holds for whichever version is current when the write lands", () => {
  let s: TestServer;
  let store: SqlSolStore;
  /** Set to make the next memento read be followed at once by another writer's update. */
  let interlope = false;
  beforeAll(async () => {
    store = await openStore("sqlite::memory:");
    const { get, put } = store.mementos;
    store.mementos.get = async (tenantId, threadId) => {
      const current = await get(tenantId, threadId);
      if (interlope && current !== null) {
        interlope = false;
        const moved = { ...current.memento, arc: "moved on by a turn" };
        await put(tenantId, threadId, moved, current.version, new Date().toISOString());
      }
      return current;
    };
    s = await startTestServer({ backend: "sqlite-memory", serverOptions: { store } });
    const turn = await s.request("POST", "/v1/chat", {
      requestId: "star-1",
      threadId: "star",
      message: "I need to plan my week.",
    });
    expect(turn.status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
  });

  it("If-Match: * writes even when another writer moved the memento on after it was read", async () => {
    const got = await s.request("GET", "/v1/threads/star/memento");
    expect(got.headers.get("etag")).toBe('"v1"');
    interlope = true;
    const put = await s.request(
      "PUT",
      "/v1/threads/star/memento",
      { ...got.json, arc: "mine" },
      { "if-match": "*" },
    );
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toBe('"v3"');
    expect((await s.request("GET", "/v1/threads/star/memento")).json.arc).toBe("mine");
  });

  it("a list of tags writes on the new version only when the list names it", async () => {
    const body = (await s.request("GET", "/v1/threads/star/memento")).json;
    interlope = true;
    const named = await s.request(
      "PUT",
      "/v1/threads/star/memento",
      { ...body, arc: "listed" },
      { "if-match": '"v3", "v4"' },
    );
    expect(named.status).toBe(200);
    expect(named.headers.get("etag")).toBe('"v5"');
    interlope = true;
    const unnamed = await s.request(
      "PUT",
      "/v1/threads/star/memento",
      { ...body, arc: "lost" },
      { "if-match": '"v5", "v9"' },
    );
    expect(unnamed.status).toBe(412);
    expect(unnamed.json.error.details.currentEtag).toBe('"v6"');
  });
});
