import { isSolError, type TurnDrift } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { claimInput, sampleMemento, T0, turnInput } from "../support/samples.js";
import type { PortHarness, PortStore } from "./harness.js";

const T = "tenant-a";

/** The thread's state as the three port reads give it, read apart. */
async function readApart(store: PortStore, threadId: string, windowSize: number) {
  return {
    memento: await store.mementos.get(T, threadId),
    recent: windowSize === 0 ? [] : await store.messages.listRecent(T, threadId, windowSize),
    stats: await store.messages.threadStats(T, threadId),
  };
}

/** SolStore.readThread: the memento, recent window and stats a turn starts from, read together. */
export function readThreadContract(harness: PortHarness): void {
  describe("readThread", () => {
    it("gives what the memento and message reads give, for a new thread and a busy one", async () => {
      const store = await harness.open();
      const empty = await store.readThread(T, "busy", 4);
      expect(empty).toEqual({
        memento: null,
        recent: [],
        stats: { messageCount: 0, lastModeLabel: null, churnTokens: 0, lastDrift: null, domainTags: [] },
      });
      const drift: TurnDrift = { flare: true, regenerated: true, passed: false, violations: ["claim"] };
      for (let turn = 0; turn < 3; turn++) {
        const requestId = `busy-r${turn}`;
        await store.transmissions.claim(claimInput(T, requestId, { threadId: "busy" }));
        const input = turnInput(T, requestId, turn, {
          threadId: "busy",
          threadStats: { tokens: 7, checkpointed: false, drift, domainFlags: ["health"] },
          userMessage: { messageId: `u-${requestId}`, content: `question ${turn} — naïve "quotes" \\ 🙂` },
        });
        const memento = {
          value: sampleMemento("busy", `arc ${turn}`),
          expectedVersion: turn === 0 ? null : turn,
        };
        expect((await store.commitTurn({ ...input, memento })).ok).toBe(true);
      }
      // A client's PUT after the last turn, so the flag it leaves is read too.
      await store.mementos.put(T, "busy", sampleMemento("busy", "edited"), 3, T0, { byClient: true });
      for (const windowSize of [0, 1, 4, 100]) {
        const together = await store.readThread(T, "busy", windowSize);
        expect(together).toEqual(await readApart(store, "busy", windowSize));
        expect(together.recent).toHaveLength(Math.min(windowSize, 6));
      }
      const state = await store.readThread(T, "busy", 2);
      expect(state.memento).toMatchObject({ version: 4, changedByPut: true });
      expect(JSON.stringify(state.memento?.memento)).toBe(JSON.stringify(sampleMemento("busy", "edited")));
      expect(state.recent.map((m) => [m.role, m.messageId])).toEqual([
        ["user", "u-busy-r2"],
        ["assistant", "a-busy-r2"],
      ]);
      expect(state.stats).toMatchObject({
        messageCount: 6,
        churnTokens: 21,
        lastDrift: drift,
        domainTags: ["health"],
      });
      expect(await store.readThread("tenant-b", "busy", 4)).toEqual(empty);
    });

    it("refuses a window that is not a non-negative integer", async () => {
      const store = await harness.open();
      for (const windowSize of [-1, 1.5, Number.NaN]) {
        const error = await store.readThread(T, "any", windowSize).catch((e: unknown) => e);
        expect(isSolError(error) && error.code).toBe("invalid_input");
      }
    });
  });
}
