import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { claimInput, sampleMemento, T0, turnInput } from "../support/samples.js";
import type { PortHarness } from "./harness.js";

const A = "tenant-a";
const B = "tenant-b";

/** Every read and write is scoped to one tenant. */
export function tenancyContract(harness: PortHarness): void {
  describe("tenant isolation", () => {
    it("another tenant sees none of a tenant's data and cannot change it", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(A, "r1"));
      await store.transmissions.setStatus(A, "tx-r1", "queued", "sending", T0);
      await store.transmissions.startAttempt(A, {
        attemptId: "at1",
        transmissionId: "tx-r1",
        status: "sending",
        startedAt: T0,
      });
      await store.commitTurn(
        turnInput(A, "r1", 0, { memento: { value: sampleMemento("thread-1"), expectedVersion: null } }),
      );
      await store.traces.append(A, "run-r1", "tx-r1", [
        { actor: "solserver", phase: "p", status: "completed", metadata: {} },
      ]);

      expect(await store.transmissions.get(B, "tx-r1")).toBeNull();
      expect(await store.transmissions.getByRequestId(B, "r1")).toBeNull();
      expect(await store.transmissions.count(B)).toBe(0);
      expect(await store.messages.listRecent(B, "thread-1", 10)).toEqual([]);
      expect(await store.messages.countInThread(B, "thread-1")).toBe(0);
      expect(await store.mementos.get(B, "thread-1")).toBeNull();
      expect(await store.traces.get(B, "run-r1")).toEqual([]);
      expect(await store.responses.get(B, "r1")).toBeNull();

      await store.transmissions.claim(claimInput(A, "r2"));
      expect(await store.transmissions.setStatus(B, "tx-r2", "queued", "sending", T0)).toBe(false);
      expect((await store.transmissions.get(A, "tx-r2"))?.status).toBe("queued");
      const attempt = await store.transmissions
        .startAttempt(B, { attemptId: "at2", transmissionId: "tx-r1", status: "sending", startedAt: T0 })
        .catch((caught: unknown) => caught);
      expect(isSolError(attempt) && attempt.code).toBe("not_found");
      const finish = await store.transmissions
        .finishAttempt(B, "at1", { status: "failed" })
        .catch((e: unknown) => e);
      expect(isSolError(finish) && finish.code).toBe("not_found");
      const commit = await store.commitTurn(turnInput(B, "r1", 0)).catch((caught: unknown) => caught);
      expect(isSolError(commit) && commit.code).toBe("not_found");

      // The same ids are free in B's namespace and B's writes leave A untouched.
      expect((await store.transmissions.claim(claimInput(B, "r1"))).kind).toBe("created");
      expect(await store.mementos.put(B, "thread-1", sampleMemento("thread-1", "b's"), null, T0)).toEqual({
        ok: true,
        version: 1,
      });
      const bTrace = await store.traces.append(B, "run-r1", null, [
        { actor: "user", phase: "q", status: "started", metadata: {} },
      ]);
      expect(bTrace[0]?.seq).toBe(0);

      expect((await store.transmissions.get(A, "tx-r1"))?.status).toBe("succeeded");
      expect((await store.transmissions.get(A, "tx-r1"))?.deliveryAttempts).toHaveLength(1);
      expect(await store.mementos.get(A, "thread-1")).toMatchObject({
        version: 1,
        memento: { arc: "planning the launch" },
      });
      expect(await store.traces.get(A, "run-r1")).toHaveLength(1);
      expect(await store.messages.countInThread(A, "thread-1")).toBe(2);
    });

    it("ping answers while open and close is idempotent", async () => {
      const store = await harness.open();
      expect(await store.ping()).toBe(true);
      await store.close();
      await store.close();
      expect(await store.ping()).toBe(false);
    });
  });
}
