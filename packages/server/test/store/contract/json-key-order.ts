import { buildNewTask, hashActionPayload } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { claimInput, sampleMemento, sampleResponse, T0, turnInput } from "../support/samples.js";
import type { PortHarness } from "./harness.js";

const T = "tenant-a";

// Keys whose written order is not shortest-first (jsonb's order), at more than one depth.
const payload = {
  title: "call the bank",
  due: "2025-03-02T09:00:00.000Z",
  extra: { zz: 1, a: [{ yy: 2, b: 3 }] },
};

/**
 * JSON values read back with their keys in the order they were written, on every backend (SQLite
 * keeps the text), so a replayed response, a memento or a payload preview reads the same everywhere.
 * Compared as JSON text: `toEqual` ignores key order.
 */
export function jsonKeyOrderContract(harness: PortHarness): void {
  const same = (actual: unknown, expected: unknown) =>
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));

  describe("JSON key order", () => {
    it("a stored response replays as the same JSON text", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      const response = {
        ...sampleResponse("r1", "tx-r1", "thread-1"),
        threadMemento: sampleMemento("thread-1"),
      };
      await store.commitTurn(turnInput(T, "r1", 0, { response }));
      same((await store.responses.get(T, "r1"))?.response, response);
    });

    it("a memento reads back as the same JSON text", async () => {
      const store = await harness.open();
      const memento = sampleMemento("th");
      await store.mementos.put(T, "th", memento, null, T0);
      same((await store.mementos.get(T, "th"))?.memento, memento);
    });

    it("an action's payload reads back as the same JSON text", async () => {
      const store = await harness.open();
      await store.actions.insert({
        tenantId: T,
        actionId: "a1",
        threadId: "th",
        messageId: null,
        requestId: "req-1",
        source: "envelope",
        kind: "create_reminder",
        label: "Create Reminder",
        bullets: ["Create a reminder"],
        target: null,
        dataUsed: null,
        why: null,
        payload,
        payloadHash: hashActionPayload("create_reminder", payload),
        now: T0,
      });
      same((await store.actions.get(T, "a1"))?.payload, payload);
    });

    it("a checkpoint session's state and remembered result read back as the same JSON text", async () => {
      const store = await harness.open();
      const state = { sessionId: "s", actionCount: 2, nested: { zz: 1, fired: ["k"] } };
      const result = { injectContext: ["x"], fired: [{ type: "input", priority: 1 }], continue: true };
      await store.checkpointSessions.put({
        tenantId: T,
        sessionId: "s",
        state,
        expectedVersion: null,
        now: T0,
        memo: { requestId: "req-1", result },
      });
      const stored = await store.checkpointSessions.get(T, "s");
      same(stored?.state, state);
      same(stored?.lastResult, result);
    });

    it("a task's parameters read back as the same JSON text", async () => {
      const store = await harness.open();
      const agency = harness.agency(store);
      const built = buildNewTask(
        {
          type: "gathering",
          title: "Collect 8 oak log",
          parameters: { action: "collect", target: "oak_log", amount: 8 },
          metadata: { goalKey: "collect:oak_log" },
        },
        { nowMs: Date.parse(T0), ids: (prefix) => `${prefix}-1` },
      );
      if (!built.ok) throw new Error(JSON.stringify(built.issues));
      await agency.tasks.add(T, built.value, { allowUnfinalized: true });
      same((await agency.tasks.get(T, built.value.id))?.parameters, built.value.parameters);
    });
  });
}
