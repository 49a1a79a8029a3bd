import { createCheckpointEngine, createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { hashString } from "../../src/hash/string-hash.js";
import { collidingInfixes } from "./fnv-collision.js";

describe("a granted confirmation is bound to the exact params", () => {
  it("does not let params with the same 64-bit hash through", async () => {
    const [first, second] = collidingInfixes('{"id":"', '"}');
    expect(first).not.toBe(second);
    expect(hashString(JSON.stringify({ id: first }))).toBe(hashString(JSON.stringify({ id: second })));

    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: { action_pre: { actions: { "delete_*": { require_confirmation: true } } } },
      },
      clock: createManualClock(0),
    });
    const s = engine.createSession("s");
    const asked = await engine.evaluate(s, {
      type: "action_pre",
      action: { type: "delete_user", params: { id: first } },
    });
    const actionId = asked.requireConfirmation?.action_id ?? "";
    expect(engine.grantConfirmation(s, actionId).ok).toBe(true);

    const other = await engine.evaluate(s, {
      type: "action_pre",
      action: { type: "delete_user", params: { id: second } },
    });
    expect(other.continue).toBe(false);
    expect(other.requireConfirmation).toBeDefined();
    const approved = await engine.evaluate(s, {
      type: "action_pre",
      action: { type: "delete_user", params: { id: first } },
    });
    expect(approved.continue).toBe(true);
  });
});
