import type { ThreadMementoV02 } from "../contracts/memento.js";
import type { RankableArc, RankedArc } from "../retrieval/arc-ranking.js";
import type { TenantId } from "./tenant.js";

export interface StoredMemento {
  readonly memento: ThreadMementoV02;
  /** Monotonic version; the HTTP ETag is derived from it. */
  readonly version: number;
  /** Turns since the memento was last persisted by a turn (for the persist policy). */
  readonly turnsSincePersist: number;
  readonly updatedAt: string;
  /** A client's PUT wrote the memento after the thread's last turn (the next turn's `summaryChanged`). */
  readonly changedByPut?: boolean;
}

/** Who writes a memento: a turn (the default) or a client's PUT. */
export interface MementoPutOptions {
  readonly byClient?: boolean;
}

/**
 * The parts of a thread's memento that another thread's turn ranks and injects: its arc and lists,
 * without the affect and signals that make up most of a memento's bytes.
 */
export interface MementoArc extends RankableArc {
  readonly updatedAt: string;
}

/** The arc of a stored memento (what {@link MementoStore.listRecentArcs} returns for it). */
export function mementoArcOf(stored: StoredMemento): MementoArc {
  const { threadId, arc, active, parked, decisions, next } = stored.memento;
  return { threadId, arc, active, parked, decisions, next, updatedAt: stored.updatedAt };
}

export type MementoWriteResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly currentVersion: number | null };

export interface MementoStore {
  get(tenantId: TenantId, threadId: string): Promise<StoredMemento | null>;
  /** Compare-and-swap: writes only when the stored version equals `expectedVersion` (null = none stored yet). */
  put(
    tenantId: TenantId,
    threadId: string,
    memento: ThreadMementoV02,
    expectedVersion: number | null,
    now: string,
    options?: MementoPutOptions,
  ): Promise<MementoWriteResult>;
  /**
   * The tenant's mementos, most recently updated first, leaving out `excludeThreadId` (the thread of
   * the turn): what a turn's retrieval ranks besides the explicit memories.
   */
  listRecent(
    tenantId: TenantId,
    options: { readonly excludeThreadId?: string; readonly limit: number },
  ): Promise<StoredMemento[]>;
  /**
   * {@link listRecent}, reduced to each memento's arc: what every turn's retrieval reads, so it stays
   * small on its way from the store (and across the store thread).
   */
  listRecentArcs(
    tenantId: TenantId,
    options: { readonly excludeThreadId?: string; readonly limit: number },
  ): Promise<MementoArc[]>;
  /**
   * {@link listRecentArcs} ranked against `query` where the arcs are (core's `createArcRanker`): only
   * the arcs that score, as summaries, in that order. A turn without an embedding ranker reads this,
   * so the arcs that do not match never leave the store (nor cross the store thread).
   */
  rankRecentArcs(
    tenantId: TenantId,
    options: { readonly excludeThreadId?: string; readonly limit: number; readonly query: string },
  ): Promise<RankedArc[]>;
}
