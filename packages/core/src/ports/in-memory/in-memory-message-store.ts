import { SolError } from "../../errors.js";
import type { MessageStore, StoredMessage, ThreadStats, TurnStatsUpdate } from "../message-store.js";
import { assertStorableKeys, assertStorableText, isStorableKey, keyOf } from "./storable.js";

/** The messages in insertion order and the per-thread stats, shared with the turn commit. */
export interface MessageTables {
  readonly rows: StoredMessage[];
  /** Message ids in use, by tenant and messageId (unique per tenant). */
  readonly ids: Set<string>;
  readonly stats: Map<string, ThreadStats>;
}

/** Empty message tables. */
export function createMessageTables(): MessageTables {
  return { rows: [], ids: new Set(), stats: new Map() };
}

const EMPTY_STATS: ThreadStats = {
  messageCount: 0,
  lastModeLabel: null,
  churnTokens: 0,
  lastDrift: null,
  domainTags: [],
};

/** Refuses messages a commit could not insert: unstorable text, or an id the tenant already holds. */
export function checkMessages(tables: MessageTables, messages: readonly StoredMessage[]): void {
  const seen = new Set<string>();
  for (const message of messages) {
    assertStorableKeys({
      tenantId: message.tenantId,
      threadId: message.threadId,
      messageId: message.messageId,
      transmissionId: message.transmissionId,
      modeLabel: message.modeLabel,
    });
    assertStorableText(message.content, "message content");
    const key = keyOf(message.tenantId, message.messageId);
    if (tables.ids.has(key) || seen.has(key)) {
      throw new SolError("conflict", `Message ${message.messageId} already exists`);
    }
    seen.add(key);
  }
}

function nextStats(current: ThreadStats, added: readonly StoredMessage[], turn?: TurnStatsUpdate) {
  let lastModeLabel = current.lastModeLabel;
  for (const message of added) {
    if (message.role === "assistant" && message.modeLabel) lastModeLabel = message.modeLabel;
  }
  // A checkpoint turn's own exchange came with its capsule: churn counts only the turns after it.
  const tokens = turn === undefined || turn.checkpointed ? 0 : Math.max(0, Math.round(turn.tokens));
  const flags = turn?.domainFlags;
  return {
    messageCount: current.messageCount + added.length,
    lastModeLabel,
    churnTokens: turn?.checkpointed ? 0 : current.churnTokens + tokens,
    lastDrift:
      turn === undefined ? current.lastDrift : { ...turn.drift, violations: [...turn.drift.violations] },
    domainTags: flags?.length ? [...new Set(flags)] : current.domainTags,
  };
}

/** Appends checked messages and adds them to their threads' stats (with the turn's churn and drift). */
export function insertMessages(
  tables: MessageTables,
  messages: readonly StoredMessage[],
  turn?: TurnStatsUpdate,
): void {
  const byThread = new Map<string, StoredMessage[]>();
  for (const message of messages) {
    const key = keyOf(message.tenantId, message.threadId);
    byThread.set(key, [...(byThread.get(key) ?? []), message]);
  }
  for (const [key, added] of byThread) {
    tables.stats.set(key, nextStats(tables.stats.get(key) ?? EMPTY_STATS, added, turn));
  }
  for (const message of messages) {
    tables.rows.push({ ...message });
    tables.ids.add(keyOf(message.tenantId, message.messageId));
  }
}

/** The reference MessageStore: messages in insertion order, thread stats kept beside them. */
export function createInMemoryMessageStore(tables: MessageTables = createMessageTables()): MessageStore {
  const threadStats: MessageStore["threadStats"] = async (tenantId, threadId) => {
    const stats = isStorableKey(tenantId, threadId) ? tables.stats.get(keyOf(tenantId, threadId)) : undefined;
    const found = stats ?? EMPTY_STATS;
    return {
      ...found,
      lastDrift:
        found.lastDrift === null ? null : { ...found.lastDrift, violations: [...found.lastDrift.violations] },
      domainTags: [...found.domainTags],
    };
  };
  return {
    async listRecent(tenantId, threadId, limit) {
      if (!Number.isSafeInteger(limit) || limit < 0) {
        throw new SolError("invalid_input", `limit must be a non-negative integer, got ${limit}`);
      }
      if (limit === 0 || !isStorableKey(tenantId, threadId)) return [];
      const thread = tables.rows.filter((m) => m.tenantId === tenantId && m.threadId === threadId);
      return thread.slice(Math.max(0, thread.length - limit)).map((m) => ({ ...m }));
    },
    countInThread: async (tenantId, threadId) => (await threadStats(tenantId, threadId)).messageCount,
    threadStats,
    async hasMessage(tenantId, messageId) {
      return isStorableKey(tenantId, messageId) && tables.ids.has(keyOf(tenantId, messageId));
    },
  };
}
