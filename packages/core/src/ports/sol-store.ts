import type { ChatResponse } from "../contracts/chat-response.js";
import type { ThreadMementoV02 } from "../contracts/memento.js";
import type { TraceEventDraft } from "../contracts/trace.js";
import type { DeliveryAttempt } from "../contracts/transmission.js";
import type { MementoStore, StoredMemento } from "./memento-store.js";
import type { MessageStore, StoredMessage, ThreadStats, TurnStatsUpdate } from "./message-store.js";
import type { ResponseStore } from "./response-store.js";
import type { TenantId } from "./tenant.js";
import type { TraceStore } from "./trace-store.js";
import type { TransmissionStore } from "./transmission-store.js";

/** Everything a finished turn writes, applied in one transaction so nothing is half-written. */
export interface CommitTurnInput {
  readonly tenantId: TenantId;
  readonly transmissionId: string;
  readonly requestId: string;
  readonly bodyHash: string;
  readonly threadId: string;
  readonly userMessage: { readonly messageId: string; readonly content: string };
  readonly assistantMessage: {
    readonly messageId: string;
    readonly content: string;
    readonly modeLabel: string;
  };
  /** Memento to write with compare-and-swap; omit to leave the stored memento untouched. */
  readonly memento?: { readonly value: ThreadMementoV02; readonly expectedVersion: number | null };
  /** When the memento is not persisted this turn, bump its turns-since-persist counter instead. */
  readonly bumpTurnsSincePersist: boolean;
  /** Churn and drift to keep in the thread's stats; omitted, the churn is unchanged and the drift kept. */
  readonly threadStats?: TurnStatsUpdate;
  readonly response: ChatResponse;
  readonly now: string;
  /**
   * Trace events to chain onto the end of `traceRunId` in the same transaction (one write instead of
   * two; a lost CAS rolls them back with the rest). Omit to append them separately.
   */
  readonly trace?: {
    readonly traceRunId: string;
    readonly drafts: readonly TraceEventDraft[];
    /**
     * A hint that nothing was appended to the run yet (a turn's first attempt): a store may then skip
     * reading the chain's tail. It must still be right when the hint is wrong.
     */
    readonly expectEmptyRun?: boolean;
  };
  /** The turn's delivery attempt to finish in the same transaction. */
  readonly finishAttempt?: {
    readonly attemptId: string;
    readonly patch: Pick<DeliveryAttempt, "status"> &
      Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>;
  };
  /**
   * Fencing: commit only while this attempt holds the transmission's lease. Another owner (a retry
   * took over) makes the commit write nothing and answer `lease_lost`.
   */
  readonly leaseOwner?: string;
}

export type CommitTurnResult =
  | { readonly ok: true; readonly mementoVersion: number | null }
  | { readonly ok: false; readonly reason: "memento_conflict"; readonly currentVersion: number | null }
  | { readonly ok: false; readonly reason: "lease_lost" };

/** What a turn reads of its thread before it starts. */
export interface ThreadState {
  readonly memento: StoredMemento | null;
  /** The thread's newest messages (at most the window asked for), oldest first. */
  readonly recent: StoredMessage[];
  readonly stats: ThreadStats;
}

/** Reads a thread's state through the three ports it is made of: for backends without round trips. */
export async function readThreadFromPorts(
  store: Pick<SolStore, "mementos" | "messages">,
  tenantId: TenantId,
  threadId: string,
  windowSize: number,
): Promise<ThreadState> {
  const [memento, recent, stats] = await Promise.all([
    store.mementos.get(tenantId, threadId),
    windowSize === 0 ? [] : store.messages.listRecent(tenantId, threadId, windowSize),
    store.messages.threadStats(tenantId, threadId),
  ]);
  return { memento, recent, stats };
}

/** The storage port the server's orchestrator depends on; SQLite, PostgreSQL and memory implement it. */
export interface SolStore {
  readonly kind: "sqlite" | "postgres" | "memory";
  readonly transmissions: TransmissionStore;
  readonly messages: MessageStore;
  readonly mementos: MementoStore;
  readonly traces: TraceStore;
  readonly responses: ResponseStore;
  commitTurn(input: CommitTurnInput): Promise<CommitTurnResult>;
  /**
   * The thread's memento, newest `windowSize` messages and stats, as `mementos.get`,
   * `messages.listRecent` and `messages.threadStats` give them (no messages for a window of 0): one
   * round trip where the backend has round trips.
   */
  readThread(tenantId: TenantId, threadId: string, windowSize: number): Promise<ThreadState>;
  /** Cheap liveness probe for /healthz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
