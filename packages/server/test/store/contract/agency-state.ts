import { AGENCY_COUNTER_NAMES, type AgencyStateStore, isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { A, B, NOW, rejection } from "./agency-task-fixtures.js";
import type { PortContractOptions, PortHarness } from "./harness.js";

async function openState(harness: PortHarness): Promise<AgencyStateStore> {
  return harness.agency(await harness.open()).state;
}

/** Two views of one test's data: two stores on it where the backend shares a URL, else one. */
async function twoStates(harness: PortHarness, options: PortContractOptions): Promise<AgencyStateStore[]> {
  const first = await openState(harness);
  return [first, options.sharedUrl ? await openState(harness) : first];
}

/** The agency session state (counters, drive-tick timer, signatures) through its port. */
export function agencyStateContract(harness: PortHarness, options: PortContractOptions): void {
  describe("agency state store", () => {
    it("starts a tenant at zero with its session start, and keeps tenants apart", async () => {
      const state = await openState(harness);
      const fresh = await state.counters(A, NOW);
      expect(fresh.startedAtMs).toBe(NOW);
      for (const name of AGENCY_COUNTER_NAMES) expect(fresh[name]).toBe(0);
      // A later read does not move the session start.
      expect((await state.counters(A, NOW + 5000)).startedAtMs).toBe(NOW);
      await state.addCounters(A, { llmCalls: 2, goalTags: 1 }, NOW);
      expect(await state.counters(B, NOW + 1)).toMatchObject({ llmCalls: 0, startedAtMs: NOW + 1 });
      expect(await state.counters(A, NOW)).toMatchObject({ llmCalls: 2, goalTags: 1, driveTicks: 0 });
      const listed = await state.listCounters();
      expect(listed.map((entry) => entry.tenantId)).toEqual([A, B]);
      expect(listed[0]?.counters.llmCalls).toBe(2);
    });

    it("adds steps atomically: concurrent additions from two stores all count", async () => {
      const [one, two] = (await twoStates(harness, options)) as [AgencyStateStore, AgencyStateStore];
      await one.counters(A, NOW);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? one : two).addCounters(A, { llmCalls: 1, signatureSuppressions: 2 }, NOW),
        ),
      );
      expect(await two.counters(A, NOW)).toMatchObject({ llmCalls: 20, signatureSuppressions: 40 });
      await one.addCounters(A, {}, NOW);
      await one.addCounters(A, { driveTicks: 0 }, NOW);
      expect((await one.counters(A, NOW)).driveTicks).toBe(0);
    });

    it("refuses steps that would lower a counter or name none", async () => {
      const state = await openState(harness);
      for (const steps of [{ llmCalls: -1 }, { llmCalls: 1.5 }, { startedAtMs: 1 }, { nope: 1 }]) {
        const refused = await rejection(state.addCounters(A, steps as never, NOW));
        expect(isSolError(refused) && refused.code).toBe("invalid_input");
      }
      expect((await state.counters(A, NOW)).llmCalls).toBe(0);
    });

    it("resets the counters and starts a new session; only reset lowers them", async () => {
      const state = await openState(harness);
      await state.addCounters(A, { driveTicks: 3, contentSuppressions: 1 }, NOW);
      await state.addCounters(B, { driveTicks: 1 }, NOW);
      const reset = await state.resetCounters(A, NOW + 60_000);
      expect(reset).toEqual({ ...(await state.counters(A, NOW)), startedAtMs: NOW + 60_000 });
      for (const name of AGENCY_COUNTER_NAMES) expect(reset[name]).toBe(0);
      expect((await state.counters(B, NOW)).driveTicks).toBe(1);
    });

    it("sets the drive-tick timer by compare-and-set: of racing callers exactly one wins", async () => {
      const [one, two] = (await twoStates(harness, options)) as [AgencyStateStore, AgencyStateStore];
      expect(await one.lastDriveTickMs(A, NOW)).toBeNull();
      const first = await Promise.all([
        one.swapDriveTick(A, null, NOW),
        two.swapDriveTick(A, null, NOW + 1),
        one.swapDriveTick(A, null, NOW + 2),
      ]);
      expect(first.filter(Boolean)).toHaveLength(1);
      const won = (await two.lastDriveTickMs(A, NOW)) as number;
      expect([NOW, NOW + 1, NOW + 2]).toContain(won);
      // A stale expectation loses; the right one wins; a won tick can be given back.
      expect(await two.swapDriveTick(A, null, NOW + 200_000)).toBe(false);
      expect(await two.swapDriveTick(A, won, NOW + 200_000)).toBe(true);
      expect(await one.swapDriveTick(A, NOW + 200_000, won)).toBe(true);
      expect(await one.lastDriveTickMs(A, NOW)).toBe(won);
      expect(await one.lastDriveTickMs(B, NOW)).toBeNull();
    });

    it("counts low-novelty thoughts seen, one number per call", async () => {
      const [one, two] = (await twoStates(harness, options)) as [AgencyStateStore, AgencyStateStore];
      const seen = await Promise.all([
        one.bumpLowNoveltySeen(A, NOW),
        two.bumpLowNoveltySeen(A, NOW),
        one.bumpLowNoveltySeen(A, NOW),
      ]);
      expect([...seen].sort()).toEqual([1, 2, 3]);
      expect(await two.bumpLowNoveltySeen(B, NOW)).toBe(1);
    });

    it("claims a situation signature once per window, across stores and racing callers", async () => {
      const [one, two] = (await twoStates(harness, options)) as [AgencyStateStore, AgencyStateStore];
      const window = 60_000;
      const racing = await Promise.all([
        one.claimSignature(A, "h3|f3|x0", NOW, window),
        two.claimSignature(A, "h3|f3|x0", NOW, window),
        one.claimSignature(A, "h3|f3|x0", NOW, window),
      ]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      // Within the window: suppressed, and the suppression does not extend the window.
      expect(await two.claimSignature(A, "h3|f3|x0", NOW + window - 1, window)).toBe(false);
      expect(await one.claimSignature(A, "h3|f3|x0", NOW + window, window)).toBe(true);
      expect(await one.claimSignature(A, "h3|f3|x0", NOW + window + 1, window)).toBe(false);
      // Another signature or another tenant is its own.
      expect(await two.claimSignature(A, "h1|f3|x0", NOW, window)).toBe(true);
      expect(await two.claimSignature(B, "h3|f3|x0", NOW, window)).toBe(true);
      // A released claim (the model call failed) lets the next call through; a later stamp stays.
      await two.releaseSignature(A, "h1|f3|x0", NOW);
      expect(await one.claimSignature(A, "h1|f3|x0", NOW + 1, window)).toBe(true);
      await one.releaseSignature(A, "h1|f3|x0", NOW);
      expect(await two.claimSignature(A, "h1|f3|x0", NOW + 2, window)).toBe(false);
      const refused = await rejection(one.claimSignature(A, "s", NOW, -1));
      expect(isSolError(refused) && refused.code).toBe("invalid_input");
    });
  });
}
