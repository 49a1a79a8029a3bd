import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { claimInput, sampleMemento, T0, turnInput } from "../support/samples.js";
import type { PortHarness } from "./harness.js";

const T = "tenant-a";
/** Keys no write accepts: PostgreSQL cannot even be asked about a NUL. */
const BAD_KEYS = ["a\u0000b", "a\ud800b"];

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isSolError(error) ? error.code : String(error);
}

/** Lookups by a key holding NUL or an unpaired surrogate find nothing; writes refuse it. Same on every backend. */
export function unstorableKeyContract(harness: PortHarness): void {
  describe("keys no store can hold", () => {
    it("a lookup by one finds nothing", async () => {
      const store = await harness.open();
      const { tasks, thoughts } = harness.agency(store);
      for (const bad of BAD_KEYS) {
        const found = {
          memento: await store.mementos.get(T, bad),
          mementoOfTenant: await store.mementos.get(bad, "th"),
          trace: await store.traces.get(T, bad),
          response: await store.responses.get(T, bad),
          transmission: await store.transmissions.get(T, bad),
          byRequest: await store.transmissions.getByRequestId(T, bad),
          transmissions: await store.transmissions.count(bad),
          moved: await store.transmissions.setStatus(T, bad, "queued", "sending", T0),
          messages: await store.messages.listRecent(T, bad, 5),
          messageCount: await store.messages.countInThread(T, bad),
          stats: (await store.messages.threadStats(bad, "th")).messageCount,
          message: await store.messages.hasMessage(T, bad),
          session: await store.checkpointSessions.get(T, bad),
          action: await store.actions.get(T, bad),
          execution: await store.actions.getExecution(T, "a1", bad),
          identical: await store.actions.listIdentical(T, bad, "create_reminder", "h"),
          claimed: await store.actions.compareAndSet(
            T,
            bad,
            { status: "proposed", version: 1 },
            { status: "deferred", now: T0 },
          ),
          reminder: await store.reminders.getByAction(T, bad),
          reminders: await store.reminders.list(T, { threadId: bad }),
          event: await store.calendar.getByAction(bad, "a1"),
          events: await store.calendar.list(bad),
          task: await tasks.get(T, bad),
          tasks: await tasks.listByStatus(bad),
          byGoal: await tasks.findByGoalKey(T, bad),
          taskCount: await tasks.count(bad),
          thoughts: await thoughts.listRecent(bad, 5),
        };
        expect(found, JSON.stringify(bad)).toEqual({
          memento: null,
          mementoOfTenant: null,
          trace: [],
          response: null,
          transmission: null,
          byRequest: null,
          transmissions: 0,
          moved: false,
          messages: [],
          messageCount: 0,
          stats: 0,
          message: false,
          session: null,
          action: null,
          execution: null,
          identical: [],
          claimed: null,
          reminder: null,
          reminders: [],
          event: null,
          events: [],
          task: null,
          tasks: [],
          byGoal: [],
          taskCount: 0,
          thoughts: [],
        });
        expect(await codeOf(store.transmissions.finishAttempt(T, bad, { status: "failed" }))).toBe(
          "not_found",
        );
      }
    });

    it("a write under one is refused as invalid_input and stores nothing", async () => {
      const store = await harness.open();
      const draft = { actor: "solserver", phase: "p", status: "completed", metadata: {} } as const;
      for (const bad of BAD_KEYS) {
        const refused = {
          memento: await codeOf(store.mementos.put(T, bad, sampleMemento("th"), null, T0)),
          traceRun: await codeOf(store.traces.append(T, bad, null, [draft])),
          traceTransmission: await codeOf(store.traces.append(T, "run", bad, [draft])),
          claim: await codeOf(store.transmissions.claim(claimInput(T, "r1", { threadId: bad }))),
          session: await codeOf(
            store.checkpointSessions.put({
              tenantId: T,
              sessionId: bad,
              state: {},
              expectedVersion: null,
              now: T0,
            }),
          ),
          thought: await codeOf(
            harness.agency(store).thoughts.append(bad, {
              thought: {
                id: "th-1",
                text: "t",
                source: "llm",
                novelty: "high",
                tags: [],
                metadata: {},
                createdAtMs: 1,
              },
              broadcast: true,
            }),
          ),
        };
        expect(refused, JSON.stringify(bad)).toEqual({
          memento: "invalid_input",
          traceRun: "invalid_input",
          traceTransmission: "invalid_input",
          claim: "invalid_input",
          session: "invalid_input",
          thought: "invalid_input",
        });
      }
      expect(await store.traces.get(T, "run")).toEqual([]);
      expect(await store.transmissions.count()).toBe(0);
      await store.transmissions.claim(claimInput(T, "r2"));
      const commit = store.commitTurn(turnInput(T, "r2", 0, { threadId: "a\u0000b" }));
      expect(await codeOf(commit)).toBe("invalid_input");
      expect(await store.transmissions.get(T, "tx-r2")).toMatchObject({ status: "queued" });
    });
  });
}
