import type { ChatResponse } from "../contracts/chat-response.js";
import type { ThreadMementoV02 } from "../contracts/memento.js";
import type { TraceEvent, TraceEventDraft } from "../contracts/trace.js";
import type { DeliveryAttempt, Transmission, TransmissionStatus } from "../contracts/transmission.js";

/** Every stored row belongs to exactly one tenant; another tenant's rows are invisible. */
export type TenantId = string;

export interface TransmissionRecord extends Transmission {
  readonly tenantId: TenantId;
  readonly threadId: string;
  /** SHA-256 of the canonical request body: same requestId + different body is a conflict. */
  readonly bodyHash: string;
  readonly traceRunId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ClaimTransmissionInput {
  readonly tenantId: TenantId;
  readonly requestId: string;
  readonly threadId: string;
  readonly bodyHash: string;
  readonly type: Transmission["type"];
  readonly packetId?: string;
  /** Used only when the claim creates the row. */
  readonly transmissionId: string;
  readonly traceRunId: string;
  readonly now: string;
  /**
   * Start delivering at once when the claim creates the row: it is created `sending` (the queued ->
   * sending edge taken in the claim's own transaction) with this first delivery attempt, also
   * `sending`. Ignored when the requestId was already claimed.
   */
  readonly startAttempt?: { readonly attemptId: string; readonly startedAt: string };
}

/**
 * Outcome of claiming a requestId. The unique constraint on (tenant, requestId) decides the winner,
 * so two processes racing on one requestId get exactly one `created`.
 */
export type ClaimTransmissionResult =
  | { readonly kind: "created"; readonly transmission: TransmissionRecord }
  | { readonly kind: "existing"; readonly transmission: TransmissionRecord };

export interface TransmissionStore {
  claim(input: ClaimTransmissionInput): Promise<ClaimTransmissionResult>;
  get(tenantId: TenantId, transmissionId: string): Promise<TransmissionRecord | null>;
  getByRequestId(tenantId: TenantId, requestId: string): Promise<TransmissionRecord | null>;
  /** Moves status (queued -> sending -> succeeded|failed, failed -> queued); returns false if `from` did not match. */
  setStatus(
    tenantId: TenantId,
    transmissionId: string,
    from: TransmissionStatus,
    to: TransmissionStatus,
    now: string,
  ): Promise<boolean>;
  startAttempt(tenantId: TenantId, attempt: DeliveryAttempt): Promise<void>;
  finishAttempt(
    tenantId: TenantId,
    attemptId: string,
    patch: Pick<DeliveryAttempt, "status"> &
      Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>,
  ): Promise<void>;
  count(tenantId?: TenantId): Promise<number>;
}

export interface StoredMessage {
  readonly tenantId: TenantId;
  readonly threadId: string;
  readonly messageId: string;
  readonly role: "user" | "assistant";
  readonly content: string;
  readonly transmissionId: string | null;
  /** The mode an assistant message was produced in (routing uses the last one); null for user messages. */
  readonly modeLabel: string | null;
  readonly createdAt: string;
}

/** What the drift protocol found in a thread's last turn; the next turn's checkpoint and drift check read it. */
export interface TurnDrift {
  /** A strict violation was found (a drift flare): the reply was regenerated, or could not be. */
  readonly flare: boolean;
  readonly regenerated: boolean;
  /** The returned reply passed the linter. */
  readonly passed: boolean;
  /** Codes of the violations found in the turn's outputs, first and regenerated, without repeats. */
  readonly violations: readonly string[];
}

export interface ThreadStats {
  readonly messageCount: number;
  readonly lastModeLabel: string | null;
  /**
   * Estimated tokens exchanged in the turns after the last one that injected a checkpoint capsule
   * (churn); that turn's own tokens are not counted, since its capsule was shown with them.
   */
  readonly churnTokens: number;
  /** The drift outcome of the thread's last turn; null when none was recorded. */
  readonly lastDrift: TurnDrift | null;
  /**
   * The thread's known domain tags (routing step 1): the domain flags of its last turn that had any,
   * so a turn without flags ("thanks", another mode) does not forget them. Empty when none yet.
   */
  readonly domainTags: readonly string[];
}

/** What a committed turn adds to its thread's stats beyond the message count and mode. */
export interface TurnStatsUpdate {
  /** Estimated tokens of the turn's user and assistant messages. */
  readonly tokens: number;
  /** The turn injected a checkpoint capsule: the churn count starts again at 0 (`tokens` ignored). */
  readonly checkpointed: boolean;
  readonly drift: TurnDrift;
  /** The turn's ModeDecision domain flags; none (or empty) keeps the thread's known domain tags. */
  readonly domainFlags?: readonly string[];
}

export interface MessageStore {
  /** Most recent `limit` messages of a thread, oldest first. */
  listRecent(tenantId: TenantId, threadId: string, limit: number): Promise<StoredMessage[]>;
  countInThread(tenantId: TenantId, threadId: string): Promise<number>;
  /**
   * The thread's message count, the mode label of its last assistant message (null: none yet), and
   * the churn and drift its turns recorded.
   */
  threadStats(tenantId: TenantId, threadId: string): Promise<ThreadStats>;
  /** Whether the tenant already has a message with this id (ids are unique per tenant). */
  hasMessage(tenantId: TenantId, messageId: string): Promise<boolean>;
}

export interface StoredMemento {
  readonly memento: ThreadMementoV02;
  /** Monotonic version; the HTTP ETag is derived from it. */
  readonly version: number;
  /** Turns since the memento was last persisted by a turn (for the persist policy). */
  readonly turnsSincePersist: number;
  readonly updatedAt: string;
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
  ): Promise<MementoWriteResult>;
}

/** One page of a trace run: the events after `afterSeq` (default: from the first), at most `limit`. */
export interface TracePage {
  readonly afterSeq?: number;
  readonly limit?: number;
}

export interface TraceStore {
  /** Appends drafts to a run, assigning seq, ts, prevHash and hash (SHA-256 chain), atomically. */
  append(
    tenantId: TenantId,
    traceRunId: string,
    transmissionId: string | null,
    drafts: readonly TraceEventDraft[],
  ): Promise<TraceEvent[]>;
  /** The run's events in seq order: all of them, or one page (a long checkpoint session's run grows for good). */
  get(tenantId: TenantId, traceRunId: string, page?: TracePage): Promise<TraceEvent[]>;
}

export interface StoredResponse {
  readonly response: ChatResponse;
  readonly bodyHash: string;
}

export interface ResponseStore {
  get(tenantId: TenantId, requestId: string): Promise<StoredResponse | null>;
}

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
}

export type CommitTurnResult =
  | { readonly ok: true; readonly mementoVersion: number | null }
  | { readonly ok: false; readonly reason: "memento_conflict"; readonly currentVersion: number | null };

/** The storage port the server's orchestrator depends on; SQLite and PostgreSQL implement it. */
export interface SolStore {
  readonly kind: "sqlite" | "postgres";
  readonly transmissions: TransmissionStore;
  readonly messages: MessageStore;
  readonly mementos: MementoStore;
  readonly traces: TraceStore;
  readonly responses: ResponseStore;
  commitTurn(input: CommitTurnInput): Promise<CommitTurnResult>;
  /** Cheap liveness probe for /healthz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
