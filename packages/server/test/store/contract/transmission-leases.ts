import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { claimInput, sampleMemento, T0, turnInput } from "../support/samples.js";
import type { PortContractOptions, PortHarness, PortStore } from "./harness.js";

const T = "tenant-a";
const LEASE_END = "2025-03-01T10:00:10.000Z";
const BEFORE_END = "2025-03-01T10:00:09.999Z";
const LATER = "2025-03-01T10:00:30.000Z";

/** A claimed transmission that attempt `att-1` holds until LEASE_END. */
async function leased(store: PortStore, requestId = "r1"): Promise<void> {
  const startAttempt = { attemptId: "att-1", startedAt: T0, leaseExpiresAt: LEASE_END };
  await store.transmissions.claim(claimInput(T, requestId, { startAttempt }));
}

function takeOverInput(attemptId: string, now: string, requestId = "r1") {
  return {
    tenantId: T,
    transmissionId: `tx-${requestId}`,
    attemptId,
    now,
    leaseExpiresAt: new Date(Date.parse(now) + 10_000).toISOString(),
  };
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isSolError(error) ? error.code : undefined;
}

/** TransmissionStore leases: the claim's first lease, renewals, takeovers and the fenced commit. */
export function transmissionLeaseContract(harness: PortHarness, options: PortContractOptions): void {
  describe("transmission leases", () => {
    it("a claim with startAttempt gives its attempt the lease; one without has none", async () => {
      const store = await harness.open();
      await leased(store);
      expect(await store.transmissions.get(T, "tx-r1")).toMatchObject({
        leaseOwner: "att-1",
        leaseExpiresAt: LEASE_END,
      });
      const { transmission } = await store.transmissions.claim(claimInput(T, "r2"));
      expect("leaseOwner" in transmission || "leaseExpiresAt" in transmission).toBe(false);
    });

    it("renewLease extends only the owner's lease on a sending transmission", async () => {
      const store = await harness.open();
      await leased(store);
      expect(await store.transmissions.renewLease(T, "tx-r1", "att-1", LATER)).toBe(true);
      expect((await store.transmissions.get(T, "tx-r1"))?.leaseExpiresAt).toBe(LATER);
      expect(await store.transmissions.renewLease(T, "tx-r1", "att-other", "2030-01-01T00:00:00.000Z")).toBe(
        false,
      );
      expect(await store.transmissions.renewLease("tenant-b", "tx-r1", "att-1", LATER)).toBe(false);
      expect(await store.transmissions.renewLease(T, "tx-missing", "att-1", LATER)).toBe(false);
      expect((await store.transmissions.get(T, "tx-r1"))?.leaseExpiresAt).toBe(LATER);
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "succeeded", LATER)).toBe(true);
      expect(await store.transmissions.renewLease(T, "tx-r1", "att-1", LATER)).toBe(false);
    });

    it("takeOver waits for the lease to lapse, then hands the transmission to a new attempt", async () => {
      const store = await harness.open();
      await leased(store);
      expect(await store.transmissions.takeOver(takeOverInput("att-2", BEFORE_END))).toBe(false);
      expect((await store.transmissions.get(T, "tx-r1"))?.leaseOwner).toBe("att-1");
      expect(await store.transmissions.takeOver(takeOverInput("att-2", LEASE_END))).toBe(true);
      const taken = await store.transmissions.get(T, "tx-r1");
      expect(taken).toMatchObject({
        status: "sending",
        leaseOwner: "att-2",
        leaseExpiresAt: "2025-03-01T10:00:20.000Z",
        updatedAt: LEASE_END,
      });
      expect(taken?.deliveryAttempts).toEqual([
        {
          attemptId: "att-1",
          transmissionId: "tx-r1",
          status: "failed",
          startedAt: T0,
          endedAt: LEASE_END,
          errorCode: "lease_lapsed",
        },
        { attemptId: "att-2", transmissionId: "tx-r1", status: "sending", startedAt: LEASE_END },
      ]);
      // The old holder is fenced off everywhere: renewals, fenced status moves.
      expect(await store.transmissions.renewLease(T, "tx-r1", "att-1", LATER)).toBe(false);
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "failed", LATER, "att-1")).toBe(
        false,
      );
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "failed", LATER, "att-2")).toBe(true);
    });

    it("a renewed lease is not taken over", async () => {
      const store = await harness.open();
      await leased(store);
      await store.transmissions.renewLease(T, "tx-r1", "att-1", LATER);
      expect(await store.transmissions.takeOver(takeOverInput("att-2", LEASE_END))).toBe(false);
    });

    it("takes over a failed transmission at once, an unleased one at once, never a succeeded one", async () => {
      const store = await harness.open();
      await leased(store);
      await store.transmissions.setStatus(T, "tx-r1", "sending", "failed", T0, "att-1");
      expect(await store.transmissions.takeOver(takeOverInput("att-2", T0))).toBe(true);
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("sending");

      await store.transmissions.claim(claimInput(T, "r2"));
      expect(await store.transmissions.takeOver(takeOverInput("att-3", T0, "r2"))).toBe(true);
      expect(await store.transmissions.get(T, "tx-r2")).toMatchObject({
        status: "sending",
        leaseOwner: "att-3",
      });

      await store.transmissions.claim(claimInput(T, "r4"));
      await store.transmissions.setStatus(T, "tx-r4", "queued", "sending", T0);
      await store.transmissions.setStatus(T, "tx-r4", "sending", "succeeded", T0);
      expect(await store.transmissions.takeOver(takeOverInput("att-4", LATER, "r4"))).toBe(false);
      expect(await store.transmissions.takeOver(takeOverInput("att-5", LATER, "missing"))).toBe(false);
      expect(
        await store.transmissions.takeOver({ ...takeOverInput("att-6", LATER), tenantId: "tenant-b" }),
      ).toBe(false);
    });

    it("a takeover whose attempt id is taken is a conflict and changes nothing", async () => {
      const store = await harness.open();
      await leased(store);
      expect(await errorCode(store.transmissions.takeOver(takeOverInput("att-1", LATER)))).toBe("conflict");
      expect(await store.transmissions.get(T, "tx-r1")).toMatchObject({
        leaseOwner: "att-1",
        leaseExpiresAt: LEASE_END,
        deliveryAttempts: [{ attemptId: "att-1", status: "sending" }],
      });
    });

    it("exactly one of many parallel takeovers wins", async () => {
      const store = await harness.open();
      await leased(store);
      const won = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.transmissions.takeOver(takeOverInput(`att-t${i}`, LATER))),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = `att-t${won.indexOf(true)}`;
      const tx = await store.transmissions.get(T, "tx-r1");
      expect(tx?.leaseOwner).toBe(winner);
      expect(tx?.deliveryAttempts.map((a) => a.attemptId)).toEqual(["att-1", winner]);
    });

    if (options.sharedUrl) {
      it("exactly one of parallel takeovers from two connections wins", async () => {
        const a = await harness.open();
        const b = await harness.open();
        await leased(a);
        const won = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).transmissions.takeOver(takeOverInput(`att-t${i}`, LATER)),
          ),
        );
        expect(won.filter(Boolean)).toHaveLength(1);
        expect((await b.transmissions.get(T, "tx-r1"))?.deliveryAttempts).toHaveLength(2);
      });
    }

    it("commitTurn with leaseOwner commits only for the lease's owner, and writes nothing otherwise", async () => {
      const store = await harness.open();
      await leased(store);
      await store.transmissions.takeOver(takeOverInput("att-2", LATER));
      const stale = turnInput(T, "r1", 1, { leaseOwner: "att-1" });
      expect(await store.commitTurn(stale)).toEqual({ ok: false, reason: "lease_lost" });
      expect(await store.messages.countInThread(T, "thread-1")).toBe(0);
      expect(await store.responses.get(T, "r1")).toBeNull();
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("sending");

      const owned = turnInput(T, "r1", 1, {
        leaseOwner: "att-2",
        finishAttempt: { attemptId: "att-2", patch: { status: "succeeded", endedAt: LATER } },
      });
      expect(await store.commitTurn(owned)).toMatchObject({ ok: true });
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("succeeded");
      // Once committed, the old holder's late commit is still fenced (not a second turn, not a throw).
      const late = turnInput(T, "r1", 2, {
        leaseOwner: "att-1",
        userMessage: { messageId: "u-late", content: "q" },
        assistantMessage: { messageId: "a-late", content: "a", modeLabel: "companion" },
      });
      expect(await store.commitTurn(late)).toEqual({ ok: false, reason: "lease_lost" });
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);
    });

    it("a fenced commit is refused before its memento compare-and-swap", async () => {
      const store = await harness.open();
      await leased(store);
      await store.transmissions.takeOver(takeOverInput("att-2", LATER));
      const input = turnInput(T, "r1", 1, {
        leaseOwner: "att-1",
        memento: { value: sampleMemento("thread-1"), expectedVersion: 7 },
      });
      expect(await store.commitTurn(input)).toEqual({ ok: false, reason: "lease_lost" });
    });
  });
}
