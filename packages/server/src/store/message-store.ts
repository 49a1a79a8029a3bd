import { type MessageStore, SolError, type StoredMessage } from "@solserver/core";
import { assertStorableText, toNumber } from "./columns.js";
import type { StoreContext } from "./context.js";
import { preparedQuery } from "./prepared-query.js";
import { insertRowsRaw } from "./raw-insert.js";
import type { MessagesTable } from "./schema.js";

const selectRecent = preparedQuery((db, tenantId: string, threadId: string, limit: number) =>
  db
    .selectFrom("messages")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .orderBy("id", "desc")
    .limit(limit),
);

const selectThreadStats = preparedQuery((db, tenantId: string, threadId: string) =>
  db
    .selectFrom("thread_stats")
    .select(["message_count as n", "last_mode_label"])
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId),
);

const selectMessageId = preparedQuery((db, tenantId: string, messageId: string) =>
  db
    .selectFrom("messages")
    .select("message_id")
    .where("tenant_id", "=", tenantId)
    .where("message_id", "=", messageId)
    .limit(1),
);

const addToThreadCount = preparedQuery(
  (db, tenantId: string, threadId: string, added: number, lastModeLabel: string | null) =>
    db
      .insertInto("thread_stats")
      .values({
        tenant_id: tenantId,
        thread_id: threadId,
        message_count: added,
        last_mode_label: lastModeLabel,
      })
      .onConflict((oc) =>
        oc.columns(["tenant_id", "thread_id"]).doUpdateSet((eb) => ({
          message_count: eb("thread_stats.message_count", "+", eb.ref("excluded.message_count")),
          last_mode_label: eb.fn.coalesce("excluded.last_mode_label", "thread_stats.last_mode_label"),
        })),
      ),
);

const MESSAGE_COLUMNS = [
  "tenant_id",
  "thread_id",
  "message_id",
  "role",
  "content",
  "transmission_id",
  "mode_label",
  "created_at",
] as const satisfies readonly (keyof MessagesTable)[];

/** One message as the turn writes it. */
export interface NewMessage {
  readonly tenantId: string;
  readonly threadId: string;
  readonly messageId: string;
  readonly role: StoredMessage["role"];
  readonly content: string;
  readonly transmissionId: string | null;
  readonly modeLabel?: string | null;
  readonly createdAt: string;
}

/**
 * Inserts messages in the given order (their order in the thread) and adds them to their threads'
 * counts; used inside commitTurn, whose transaction keeps rows and counts in step.
 */
export async function insertMessages(ctx: StoreContext, messages: readonly NewMessage[]): Promise<void> {
  // One statement per message: the row id (insertion order) is what listRecent sorts by, and
  // PostgreSQL does not promise serial order within one multi-row INSERT. Precompiled (hot path).
  for (const message of messages) {
    assertStorableText(message.content, "message content");
    await insertRowsRaw(ctx, "messages", MESSAGE_COLUMNS, [
      [
        message.tenantId,
        message.threadId,
        message.messageId,
        message.role,
        message.content,
        message.transmissionId,
        message.modeLabel ?? null,
        message.createdAt,
      ],
    ]);
  }
  const added = new Map<string, { tenantId: string; threadId: string; n: number; mode: string | null }>();
  for (const message of messages) {
    const key = `${message.tenantId}\u0000${message.threadId}`;
    const entry = added.get(key) ?? {
      tenantId: message.tenantId,
      threadId: message.threadId,
      n: 0,
      mode: null,
    };
    entry.n += 1;
    if (message.role === "assistant" && message.modeLabel) entry.mode = message.modeLabel;
    added.set(key, entry);
  }
  for (const { tenantId, threadId, n, mode } of added.values()) {
    await addToThreadCount(ctx, tenantId, threadId, n, mode);
  }
}

/** MessageStore over the messages table; order is insertion order. */
export function createMessageStore(ctx: StoreContext): MessageStore {
  const threadStats: MessageStore["threadStats"] = async (tenantId, threadId) => {
    const row = (await selectThreadStats(ctx, tenantId, threadId)).rows[0];
    return { messageCount: toNumber(row?.n ?? 0), lastModeLabel: row?.last_mode_label ?? null };
  };
  return {
    async listRecent(tenantId, threadId, limit) {
      if (!Number.isSafeInteger(limit) || limit < 0) {
        throw new SolError("invalid_input", `limit must be a non-negative integer, got ${limit}`);
      }
      if (limit === 0) return [];
      const { rows } = await selectRecent(ctx, tenantId, threadId, limit);
      return rows.reverse().map(
        (row): StoredMessage => ({
          tenantId: row.tenant_id,
          threadId: row.thread_id,
          messageId: row.message_id,
          role: row.role as StoredMessage["role"],
          content: row.content,
          transmissionId: row.transmission_id,
          modeLabel: row.mode_label ?? null,
          createdAt: row.created_at,
        }),
      );
    },

    countInThread: async (tenantId, threadId) => (await threadStats(tenantId, threadId)).messageCount,

    threadStats,

    async hasMessage(tenantId, messageId) {
      const { rows } = await selectMessageId(ctx, tenantId, messageId);
      return rows.length > 0;
    },
  };
}
