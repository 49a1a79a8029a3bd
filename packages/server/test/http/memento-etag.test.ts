import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
