import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

// api.md §2: never a 500 for anything a client sent. A goal tag whose target folds to more than
// 100 characters ("ﬃ" -> "ffi") made a thought the store refused, and the request failed with 500.
describe("POST /v1/thoughts with a goal tag whose target folds past the limit", () => {
  it("answers 200 with no goal (fail-closed, reported as malformed)", async () => {
    const srv = await startTestServer({ backend: "sqlite-memory" });
    open.push(srv);
    const text = `Gathering. [GOAL: collect ${"\u3392".repeat(90)}]`;
    const reply = await srv.request("POST", "/v1/thoughts", { text, convertEligible: true });
    expect(reply.status).toBe(200);
    expect(reply.json.thought.metadata.extractedGoal).toBeUndefined();
    expect(reply.json.thought.metadata.goalFailReason).toBe("malformed");
    expect(reply.json.decision.decision).toBe("dropped_sanitizer");
  });
});
