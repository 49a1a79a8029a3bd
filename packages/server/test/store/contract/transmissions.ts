import { isSolError, type TransmissionStatus } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimInput, T0 } from "../support/samples.js";
import type { PortContractOptions, PortHarness } from "./harness.js";

const T = "tenant-a";
const STATUSES: readonly TransmissionStatus[] = ["queued", "sending", "succeeded", "failed"];
const EDGES: ReadonlyArray<readonly [TransmissionStatus, TransmissionStatus]> = [
  ["queued", "sending"],
  ["sending", "succeeded"],
  ["sending", "failed"],
  ["failed", "queued"],
];

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isSolError(error) ? error.code : undefined;
}

/** TransmissionStore: idempotent claims, the status state machine, delivery attempts, counts. */
export function transmissionContract(harness: PortHarness, options: PortContractOptions): void {
  describe("transmissions", () => {
    it("claim creates a queued transmission, then returns the existing one for the same requestId", async () => {
      const store = await harness.open();
      const first = await store.transmissions.claim(claimInput(T, "r1", { packetId: "p1" }));
      expect(first.kind).toBe("created");
      expect(first.transmission).toEqual({
        tenantId: T,
        transmissionId: "tx-r1",
        requestId: "r1",
        threadId: "thread-1",
        type: "chat",
        status: "queued",
        packetId: "p1",
        bodyHash: "hash-r1",
        traceRunId: "run-r1",
        createdAt: T0,
        updatedAt: T0,
        deliveryAttempts: [],
      });
      const again = await store.transmissions.claim(
        claimInput(T, "r1", { transmissionId: "tx-other", bodyHash: "different", traceRunId: "run-other" }),
      );
      expect(again).toEqual({ kind: "existing", transmission: first.transmission });
      expect(await store.transmissions.get(T, "tx-r1")).toEqual(first.transmission);
      expect(await store.transmissions.getByRequestId(T, "r1")).toEqual(first.transmission);
      expect(await store.transmissions.get(T, "tx-other")).toBeNull();
      expect(await store.transmissions.getByRequestId(T, "nope")).toBeNull();
      expect(await store.transmissions.count(T)).toBe(1);
    });

    it("omits packetId when none was given", async () => {
      const store = await harness.open();
      const { transmission } = await store.transmissions.claim(claimInput(T, "r1"));
      expect("packetId" in transmission).toBe(false);
    });

    it("20 parallel claims of one requestId create exactly one transmission", async () => {
      const store = await harness.open();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.transmissions.claim(claimInput(T, "race", { transmissionId: `tx-${i}` })),
        ),
      );
      expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
      expect(new Set(results.map((r) => r.transmission.transmissionId)).size).toBe(1);
      expect(await store.transmissions.count()).toBe(1);
    });

    if (options.sharedUrl) {
      it("parallel claims from two store instances on one database create exactly one", async () => {
        const [a, b] = await Promise.all([harness.open(), harness.open()]);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? a : b).transmissions.claim(claimInput(T, "race", { transmissionId: `tx-${i}` })),
          ),
        );
        expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
        expect(new Set(results.map((r) => r.transmission.transmissionId)).size).toBe(1);
        expect(await a.transmissions.count()).toBe(1);
        expect(await b.transmissions.count()).toBe(1);
      });
    }

    it("a claim with startAttempt is created sending with its first attempt, in one step", async () => {
      const store = await harness.open();
      const start = { attemptId: "att-1", startedAt: T0 };
      const created = await store.transmissions.claim(claimInput(T, "r1", { startAttempt: start }));
      const attempt = { attemptId: "att-1", transmissionId: "tx-r1", status: "sending", startedAt: T0 };
      expect(created.kind).toBe("created");
      expect(created.transmission).toMatchObject({ status: "sending", deliveryAttempts: [attempt] });
      expect(await store.transmissions.get(T, "tx-r1")).toEqual(created.transmission);

      // Claiming the same requestId again adds nothing and reports the stored state.
      const again = await store.transmissions.claim(
        claimInput(T, "r1", {
          transmissionId: "tx-other",
          startAttempt: { attemptId: "att-2", startedAt: T0 },
        }),
      );
      expect(again.kind).toBe("existing");
      expect(again.transmission).toEqual(created.transmission);
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "succeeded", T0)).toBe(true);
    });

    it("parallel claims with startAttempt create exactly one transmission and one attempt", async () => {
      const store = await harness.open();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.transmissions.claim(
            claimInput(T, "race", {
              transmissionId: `tx-${i}`,
              startAttempt: { attemptId: `att-${i}`, startedAt: T0 },
            }),
          ),
        ),
      );
      const winners = results.filter((r) => r.kind === "created");
      expect(winners).toHaveLength(1);
      const stored = await store.transmissions.get(T, winners[0]?.transmission.transmissionId ?? "");
      expect(stored?.deliveryAttempts).toHaveLength(1);
      expect(stored?.deliveryAttempts[0]?.attemptId).toBe(
        winners[0]?.transmission.transmissionId.replace("tx-", "att-"),
      );
    });

    it("a claim whose first attempt id is taken writes nothing", async () => {
      const store = await harness.open();
      await store.transmissions.claim(
        claimInput(T, "r1", { startAttempt: { attemptId: "att-1", startedAt: T0 } }),
      );
      const clash = claimInput(T, "r2", { startAttempt: { attemptId: "att-1", startedAt: T0 } });
      expect(await errorCode(store.transmissions.claim(clash))).toBe("conflict");
      expect(await store.transmissions.getByRequestId(T, "r2")).toBeNull();
      expect(await store.transmissions.count(T)).toBe(1);
    });

    it("a transmissionId reused for another request is a conflict", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      expect(
        await errorCode(store.transmissions.claim(claimInput(T, "r2", { transmissionId: "tx-r1" }))),
      ).toBe("conflict");
      expect(await store.transmissions.count(T)).toBe(1);
    });

    it("setStatus follows queued -> sending -> succeeded|failed, failed -> queued, checking `from`", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      const later = "2025-03-01T10:00:05.000Z";
      expect(await store.transmissions.setStatus(T, "tx-r1", "queued", "sending", later)).toBe(true);
      expect(await store.transmissions.setStatus(T, "tx-r1", "queued", "sending", later)).toBe(false);
      expect(await store.transmissions.get(T, "tx-r1")).toMatchObject({
        status: "sending",
        updatedAt: later,
        createdAt: T0,
      });
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "failed", later)).toBe(true);
      expect(await store.transmissions.setStatus(T, "tx-r1", "failed", "queued", later)).toBe(true);
      expect(await store.transmissions.setStatus(T, "tx-r1", "queued", "sending", later)).toBe(true);
      expect(await store.transmissions.setStatus(T, "tx-r1", "sending", "succeeded", later)).toBe(true);
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("succeeded");
      expect(await store.transmissions.setStatus(T, "missing", "queued", "sending", later)).toBe(false);
    });

    it("setStatus rejects moves that are not in the state machine", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      for (const from of STATUSES) {
        for (const to of STATUSES) {
          if (EDGES.some(([f, t]) => f === from && t === to)) continue;
          expect(await errorCode(store.transmissions.setStatus(T, "tx-r1", from, to, T0))).toBe(
            "invalid_transition",
          );
        }
      }
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("queued");
    });

    it("setStatus agrees with a model of the state machine (property)", async () => {
      const store = await harness.open();
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...EDGES), { maxLength: 12 }), async (moves) => {
          n += 1;
          const { transmission } = await store.transmissions.claim(claimInput(T, `prop-${n}`));
          let model: TransmissionStatus = "queued";
          for (const [from, to] of moves) {
            const moved = await store.transmissions.setStatus(T, transmission.transmissionId, from, to, T0);
            expect(moved).toBe(model === from);
            if (moved) model = to;
          }
          expect((await store.transmissions.get(T, transmission.transmissionId))?.status).toBe(model);
        }),
        { numRuns: 25 },
      );
    });

    it("exactly one of many parallel identical moves wins", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      const moved = await Promise.all(
        Array.from({ length: 10 }, () => store.transmissions.setStatus(T, "tx-r1", "queued", "sending", T0)),
      );
      expect(moved.filter(Boolean)).toHaveLength(1);
    });

    it("records delivery attempts in order and patches them when they finish", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      const started = "2025-03-01T10:00:01.000Z";
      await store.transmissions.startAttempt(T, {
        attemptId: "at1",
        transmissionId: "tx-r1",
        status: "sending",
        startedAt: started,
      });
      await store.transmissions.finishAttempt(T, "at1", {
        status: "failed",
        endedAt: "2025-03-01T10:00:02.000Z",
        errorCode: "provider_timeout",
        latencyMs: 1000.5,
      });
      await store.transmissions.startAttempt(T, {
        attemptId: "at0",
        transmissionId: "tx-r1",
        status: "sending",
        startedAt: "2025-03-01T10:00:03.000Z",
      });
      await store.transmissions.finishAttempt(T, "at0", { status: "succeeded" });
      const record = await store.transmissions.get(T, "tx-r1");
      expect(record?.deliveryAttempts).toEqual([
        {
          attemptId: "at1",
          transmissionId: "tx-r1",
          status: "failed",
          startedAt: started,
          endedAt: "2025-03-01T10:00:02.000Z",
          errorCode: "provider_timeout",
          latencyMs: 1000.5,
        },
        {
          attemptId: "at0",
          transmissionId: "tx-r1",
          status: "succeeded",
          startedAt: "2025-03-01T10:00:03.000Z",
        },
      ]);
      const existing = await store.transmissions.claim(claimInput(T, "r1"));
      expect(existing.transmission.deliveryAttempts).toHaveLength(2);
    });

    it("rejects attempts for unknown transmissions, duplicate attempt ids and unknown attempts", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      const attempt = {
        attemptId: "at1",
        transmissionId: "tx-r1",
        status: "sending" as const,
        startedAt: T0,
      };
      expect(
        await errorCode(store.transmissions.startAttempt(T, { ...attempt, transmissionId: "tx-missing" })),
      ).toBe("not_found");
      await store.transmissions.startAttempt(T, attempt);
      expect(await errorCode(store.transmissions.startAttempt(T, attempt))).toBe("conflict");
      expect(await errorCode(store.transmissions.finishAttempt(T, "at-missing", { status: "failed" }))).toBe(
        "not_found",
      );
    });

    it("counts per tenant and in total", async () => {
      const store = await harness.open();
      await store.transmissions.claim(claimInput(T, "r1"));
      await store.transmissions.claim(claimInput(T, "r2"));
      await store.transmissions.claim(claimInput("tenant-b", "r1"));
      expect(await store.transmissions.count(T)).toBe(2);
      expect(await store.transmissions.count("tenant-b")).toBe(1);
      expect(await store.transmissions.count("tenant-c")).toBe(0);
      expect(await store.transmissions.count()).toBe(3);
    });
  });
}
