import { createManualClock } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineProvider } from "../../src/index.js";
import { detectDriverBlockRequest } from "../../src/providers/offline/driver-block-request.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { mainRequest, parseEnvelope } from "./helpers.js";

describe("the offline provider's Driver Block proposals", () => {
  it('reads "from now on" requests into blocks, deterministically', () => {
    expect(detectDriverBlockRequest("From now on always end with a summary")).toMatchObject({
      id: "end-with-summary",
      outputContract: { requiredSections: ["Summary"] },
    });
    expect(detectDriverBlockRequest('from now on, never say "as an AI".')).toMatchObject({
      id: "never-say-as-an-ai",
      validators: { mustNot: ["as an AI"] },
    });
    expect(detectDriverBlockRequest("Always end with a summary")).toBeUndefined();
    expect(detectDriverBlockRequest("what happens from now on?")).toBeUndefined();
  });

  it("proposes create_driver_block in the envelope", async () => {
    const provider = createOfflineProvider({ clock: createManualClock(0) });
    const reply = await provider.complete(mainRequest("From now on always end with a summary"));
    const actions = parseEnvelope(reply.text).meta?.action_needed ?? [];
    expect(actions.map((a) => a.action_kind)).toEqual(["create_driver_block"]);
  });
});

describe("an offline proposal over HTTP", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => srv.close());

  it("is a chip whose Approve stores the block", async () => {
    const res = await srv.request("POST", "/v1/chat", {
      requestId: "offline-block-1",
      threadId: "th-offline-block",
      message: "From now on always end with a summary",
    });
    const [action] = res.json.actions;
    expect(action.action_summary_bullets[0]).toBe('Every reply has a section: "Summary"');
    const done = await srv.request("POST", "/v1/actions/execute", {
      action_id: action.action_id,
      request_id: "x1",
    });
    expect(done.json.status).toBe("succeeded");
    const list = await srv.request("GET", "/v1/driver-blocks");
    expect(list.json.driverBlocks.map((b: { id: string }) => b.id)).toEqual(["end-with-summary"]);
    const doc = (await srv.request("GET", "/openapi.json")).json;
    expect(Object.keys(doc.paths["/v1/driver-blocks"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v1/driver-blocks/{blockId}"]).sort()).toEqual(["delete", "patch"]);
  });
});
