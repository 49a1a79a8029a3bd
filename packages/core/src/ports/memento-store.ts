import type { ThreadMementoV02 } from "../contracts/memento.js";
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
}
