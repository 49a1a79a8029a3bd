import type { AgencyCounterSteps, AgencyCounters } from "../agency/counters.js";
import type { TenantId } from "./tenant.js";

/**
 * The agency's per-tenant session state, shared by every server instance on one store: the
 * contract's counters (with `startedAtMs`), when the last drive tick fired, the low-novelty
 * broadcast count and the situation signatures seen. Every write is atomic in the store, so two
 * instances never lose each other's steps. A tenant's state is created, zero, with
 * `startedAtMs = nowMs`, the first time any method touches it.
 */
export interface AgencyStateStore {
  /** The tenant's counters. */
  counters(tenantId: TenantId, nowMs: number): Promise<AgencyCounters>;
  /** Adds non-negative integer steps to counters atomically (x = x + n), never read-modify-write. */
  addCounters(tenantId: TenantId, steps: AgencyCounterSteps, nowMs: number): Promise<void>;
  /** Zeroes the counters and starts a new session at `nowMs`; returns the fresh counters. */
  resetCounters(tenantId: TenantId, nowMs: number): Promise<AgencyCounters>;
  /** Every tenant with stored state and its counters, tenant ids ascending (the 60 s log). */
  listCounters(): Promise<{ readonly tenantId: TenantId; readonly counters: AgencyCounters }[]>;
  /** When the last drive tick fired; null before the first. */
  lastDriveTickMs(tenantId: TenantId, nowMs: number): Promise<number | null>;
  /**
   * Compare-and-set of the drive-tick timer: sets it to `nextMs` only when it still holds
   * `expectedMs` (null: never fired). True when this call won; of concurrent callers that read the
   * same value, exactly one does.
   */
  swapDriveTick(tenantId: TenantId, expectedMs: number | null, nextMs: number | null): Promise<boolean>;
  /** Adds one to the count of non-task-worthy low-novelty thoughts and returns the new count. */
  bumpLowNoveltySeen(tenantId: TenantId, nowMs: number): Promise<number>;
  /**
   * Claims a situation signature: true (and the signature is stamped `nowMs`) when it was not seen
   * in the `windowMs` before `nowMs`; false when it was, which leaves its stamp as it is. Of
   * concurrent claims of one signature, exactly one gets true.
   */
  claimSignature(tenantId: TenantId, signature: string, nowMs: number, windowMs: number): Promise<boolean>;
  /** Undoes the claim stamped `claimedAtMs` (the model call failed); a later stamp is left alone. */
  releaseSignature(tenantId: TenantId, signature: string, claimedAtMs: number): Promise<void>;
}
