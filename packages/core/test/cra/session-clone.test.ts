import { describe, expect, it } from "vitest";
import {
  type CheckpointSessionState,
  cloneSession,
  newCheckpointSession,
  restoreCheckpointSession,
} from "../../src/cra/session.js";

/** A session with every list and record filled, as a long agent session leaves it. */
function busySession(): CheckpointSessionState {
  return {
    ...newCheckpointSession("s-1", 1_000, { intent: "book travel" }),
    started: true,
    firedPatterns: ["rule-a", "rule-b"],
    actionCount: 3,
    inputCount: 7,
    // An own "__proto__" key, as JSON.parse of a stored state can give.
    intervalMarks: JSON.parse('{"every-5":2000,"__proto__":3000}') as Record<string, number>,
    pendingActions: ["send_email:abc"],
    confirmationSeq: 2,
    pendingConfirmations: [
      {
        action_id: "act-1",
        request_id: "req-1",
        action_key: "send_email:abc",
        action_type: "send_email",
        created_at_ms: 1_500,
      },
    ],
    grantedConfirmations: ["pay:xyz"],
  };
}

describe("cloneSession", () => {
  it("gives what a JSON round trip gives, key order included", () => {
    for (const state of [busySession(), newCheckpointSession("s-2", 5)]) {
      const copy = cloneSession(state);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(state));
      expect(copy).toEqual(JSON.parse(JSON.stringify(state)));
      expect(restoreCheckpointSession(copy).ok).toBe(true);
    }
  });

  it("shares nothing with the original: changing the copy leaves it as it was", () => {
    const state = busySession();
    const before = JSON.stringify(state);
    const copy = cloneSession(state);
    copy.firedPatterns.push("rule-c");
    copy.intervalMarks["every-5"] = 9_999;
    copy.pendingActions.length = 0;
    (copy.pendingConfirmations[0] as { created_at_ms: number }).created_at_ms = 0;
    copy.grantedConfirmations.push("pay:other");
    expect(JSON.stringify(state)).toBe(before);
  });

  it("leaves out an intent that is present but undefined, as JSON does", () => {
    const state = {
      ...newCheckpointSession("s-3", 0),
      intent: undefined,
    } as unknown as CheckpointSessionState;
    const copy = cloneSession(state);
    expect("intent" in copy).toBe(false);
    expect(copy).toEqual(JSON.parse(JSON.stringify(state)));
  });
});
