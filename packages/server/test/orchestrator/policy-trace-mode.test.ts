import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
});
afterAll(async () => srv.close());

/** The metadata of the turn's `policy` trace event. */
async function policyEvent(body: Record<string, unknown>) {
  const res = await srv.request("POST", "/v1/chat", {
    threadId: "thread-policy-trace",
    message: "hello",
    traceConfig: { level: "debug" },
    ...body,
  });
  expect(res.status).toBe(200);
  return res.json.trace.events.find((e: { phase: string }) => e.phase === "policy").metadata;
}

// Flow pack, Packet: driverBlockMode is there for "audit clarity", so the turn's audit record (its
// trace) says which mode applied and which blocks were the system's and which the user's.
describe("the policy trace event", () => {
  it("records the driverBlockMode and each block's scope", async () => {
    const custom = await policyEvent({
      requestId: "policy-trace-custom",
      driverBlockMode: "custom",
      driverBlockRefs: [{ id: "facts-block", version: "1" }],
      driverBlockInline: [{ id: "mine", version: 1, promptConstraints: ["Be brief."] }],
    });
    expect(custom.driverBlockMode).toBe("custom");
    expect(custom.blocks).toEqual([
      { id: "facts-block", version: "1", enforcement: "strict", scope: "system" },
      { id: "mine", version: 1, enforcement: "strict", scope: "user" },
    ]);
    const byDefault = await policyEvent({ requestId: "policy-trace-default" });
    expect(byDefault.driverBlockMode).toBe("default");
  });
});
