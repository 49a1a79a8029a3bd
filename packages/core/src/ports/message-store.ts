import type { TenantId } from "./tenant.js";

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
