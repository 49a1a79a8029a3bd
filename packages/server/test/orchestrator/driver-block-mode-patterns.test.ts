import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
});
afterAll(async () => srv.close());

// api.md §2: 400 invalid input, details naming each bad field. A block's bad pattern is refused the
// same way whichever mode the turn is routed to, and before the request is recorded.
describe("an inline block with a bad pattern and appliesToModes", () => {
  it("is a 400 naming the pattern, before anything is written, in or out of its mode", async () => {
    // "hi" routes to assist: the block applies to the turn in the first request and not in the second.
    for (const [i, mode] of ["assist", "no-such-mode"].entries()) {
      const requestId = `bad-pattern-${i}`;
      const res = await srv.request("POST", "/v1/chat", {
        requestId,
        threadId: "thread-bad-pattern",
        message: "hi",
        driverBlockInline: [
          { id: "mine", version: 1, appliesToModes: [mode], validators: { mustNot: ["*"] } },
        ],
      });
      expect(res.status, mode).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.details).toEqual([
        {
          path: "driverBlockInline.0.validators.mustNot.0",
          message: 'pattern "*" is empty',
          code: "invalid_driver_block",
        },
      ]);
      expect(await srv.server.store.transmissions.getByRequestId("default", requestId)).toBeNull();
    }
  });
});
