import {
  AGENCY_COUNTER_NAMES,
  type AgencyCounters,
  assertAgencyCounterSteps,
  createAgencyCounters,
} from "../../agency/counters.js";
import { SolError } from "../../errors.js";
import type { AgencyStateStore } from "../agency-state-store.js";
import { assertStorableKeys } from "./storable.js";

interface TenantState {
  counters: AgencyCounters;
  lastDriveTickMs: number | null;
  lowNoveltySeen: number;
  readonly signatures: Map<string, number>;
}

/** Refuses a signature window that is not a non-negative integer of milliseconds. */
export function assertSignatureWindow(windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs < 0) {
    throw new SolError("invalid_input", `signature window must be a non-negative integer, got ${windowMs}`);
  }
}

/** The reference AgencyStateStore: one state per tenant in a Map (one process, so atomic by construction). */
export function createInMemoryAgencyStateStore(): AgencyStateStore {
  const tenants = new Map<string, TenantState>();

  function stateOf(tenantId: string, nowMs: number): TenantState {
    assertStorableKeys({ tenantId });
    let state = tenants.get(tenantId);
    if (state === undefined) {
      state = {
        counters: createAgencyCounters(nowMs),
        lastDriveTickMs: null,
        lowNoveltySeen: 0,
        signatures: new Map(),
      };
      tenants.set(tenantId, state);
    }
    return state;
  }

  return {
    async counters(tenantId, nowMs) {
      return { ...stateOf(tenantId, nowMs).counters };
    },
    async addCounters(tenantId, steps, nowMs) {
      assertAgencyCounterSteps(steps);
      const state = stateOf(tenantId, nowMs);
      const next = { ...state.counters };
      for (const name of AGENCY_COUNTER_NAMES) next[name] += steps[name] ?? 0;
      state.counters = next;
    },
    async resetCounters(tenantId, nowMs) {
      const state = stateOf(tenantId, nowMs);
      state.counters = createAgencyCounters(nowMs);
      return { ...state.counters };
    },
    async listCounters() {
      return [...tenants.keys()]
        .sort()
        .map((tenantId) => ({ tenantId, counters: { ...(tenants.get(tenantId) as TenantState).counters } }));
    },
    async lastDriveTickMs(tenantId, nowMs) {
      return stateOf(tenantId, nowMs).lastDriveTickMs;
    },
    async swapDriveTick(tenantId, expectedMs, nextMs) {
      const state = stateOf(tenantId, nextMs ?? expectedMs ?? 0);
      if (state.lastDriveTickMs !== expectedMs) return false;
      state.lastDriveTickMs = nextMs;
      return true;
    },
    async bumpLowNoveltySeen(tenantId, nowMs) {
      const state = stateOf(tenantId, nowMs);
      state.lowNoveltySeen += 1;
      return state.lowNoveltySeen;
    },
    async claimSignature(tenantId, signature, nowMs, windowMs) {
      assertSignatureWindow(windowMs);
      assertStorableKeys({ signature });
      const state = stateOf(tenantId, nowMs);
      const seenAt = state.signatures.get(signature);
      if (seenAt !== undefined && seenAt > nowMs - windowMs) return false;
      state.signatures.set(signature, nowMs);
      return true;
    },
    async releaseSignature(tenantId, signature, claimedAtMs) {
      const signatures = tenants.get(tenantId)?.signatures;
      if (signatures?.get(signature) === claimedAtMs) signatures.delete(signature);
    },
  };
}
