import {
  clipText,
  type TenantId,
  type ThreadMessage,
  type ThreadStore,
  type ThreadSummary,
} from "@solserver/core";
import { isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";

/** Longest derived title, in UTF-16 units (the "…" included). */
export const THREAD_TITLE_MAX = 60;

/** A thread's title derived from its first user message: whitespace collapsed, clipped. */
export function deriveThreadTitle(firstUserMessage: string): string | undefined {
  const flat = firstUserMessage.replace(/\s+/gu, " ").trim();
  return flat === "" ? undefined : clipText(flat, THREAD_TITLE_MAX);
}

/** The row id of the thread's newest message, or null when it has none (the list's page cursor). */
async function lastMessageId(
  ctx: StoreContext,
  tenantId: TenantId,
  threadId: string,
): Promise<number | null> {
  const row = await ctx.db
    .selectFrom("messages")
    .select((eb) => eb.fn.max("id").as("last"))
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? null : toNumber(row.last);
}

/** True when the tenant has anything stored under the thread: messages (their stats) or a memento. */
async function threadExists(ctx: StoreContext, tenantId: TenantId, threadId: string): Promise<boolean> {
  const stats = await ctx.db
    .selectFrom("thread_stats")
    .select("thread_id")
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .executeTakeFirst();
  if (stats !== undefined) return true;
  const memento = await ctx.db
    .selectFrom("mementos")
    .select("thread_id")
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .executeTakeFirst();
  return memento !== undefined;
}

/** The page of thread ids with their newest row id, newest first, strictly older than `before`. */
async function threadPage(
  ctx: StoreContext,
  tenantId: TenantId,
  limit: number,
  before: number | null,
): Promise<Array<{ threadId: string; lastId: number }>> {
  let query = ctx.db
    .selectFrom("messages")
    .select((eb) => ["thread_id", eb.fn.max("id").as("last_id")])
    .where("tenant_id", "=", tenantId)
    .groupBy("thread_id");
  if (before !== null) query = query.having((eb) => eb.fn.max("id"), "<", before);
  const rows = await query.orderBy("last_id", "desc").limit(limit).execute();
  return rows.map((row) => ({ threadId: row.thread_id, lastId: toNumber(row.last_id) }));
}

/** Fills in time, counts, mode and title for a page of threads, in the page's order. */
async function describeThreads(
  ctx: StoreContext,
  tenantId: TenantId,
  page: ReadonlyArray<{ threadId: string; lastId: number }>,
): Promise<ThreadSummary[]> {
  if (page.length === 0) return [];
  const threadIds = page.map((p) => p.threadId);
  const [lastRows, statRows, firstRows] = await Promise.all([
    ctx.db
      .selectFrom("messages")
      .select(["id", "created_at"])
      .where(
        "id",
        "in",
        page.map((p) => p.lastId),
      )
      .execute(),
    ctx.db
      .selectFrom("thread_stats")
      .select(["thread_id", "message_count", "last_mode_label"])
      .where("tenant_id", "=", tenantId)
      .where("thread_id", "in", threadIds)
      .execute(),
    ctx.db
      .selectFrom("messages")
      .select((eb) => ["thread_id", eb.fn.min("id").as("first_id")])
      .where("tenant_id", "=", tenantId)
      .where("thread_id", "in", threadIds)
      .where("role", "=", "user")
      .groupBy("thread_id")
      .execute(),
  ]);
  const firstIds = firstRows.map((row) => toNumber(row.first_id));
  const firstContent =
    firstIds.length === 0
      ? []
      : await ctx.db
          .selectFrom("messages")
          .select(["thread_id", "content"])
          .where("id", "in", firstIds)
          .execute();
  const createdAt = new Map(lastRows.map((row) => [toNumber(row.id), row.created_at]));
  const stats = new Map(statRows.map((row) => [row.thread_id, row]));
  const titles = new Map(firstContent.map((row) => [row.thread_id, deriveThreadTitle(row.content)]));
  return page.map(({ threadId, lastId }) => {
    const stat = stats.get(threadId);
    const title = titles.get(threadId);
    return {
      threadId,
      updatedAt: createdAt.get(lastId) ?? "",
      messageCount: toNumber(stat?.message_count ?? 0),
      ...(stat?.last_mode_label ? { lastModeLabel: stat.last_mode_label } : {}),
      ...(title === undefined ? {} : { title }),
    };
  });
}

/** Removes what a thread is made of (messages, stats, memento, checkpoints), inside the caller's transaction. */
async function removeThreadRows(tx: StoreContext, tenantId: TenantId, threadId: string): Promise<void> {
  for (const table of ["messages", "thread_stats", "mementos", "checkpoints"] as const) {
    await tx.db
      .deleteFrom(table)
      .where("tenant_id", "=", tenantId)
      .where("thread_id", "=", threadId)
      .execute();
  }
}

/** ThreadStore over the messages, thread_stats and mementos tables. */
export function createThreadStore(ctx: StoreContext): ThreadStore {
  return {
    async list(tenantId, { limit, after }) {
      if (!isStorableKey(tenantId, after)) return [];
      let before: number | null = null;
      if (after !== undefined) {
        before = await lastMessageId(ctx, tenantId, after);
        if (before === null) return [];
      }
      return describeThreads(ctx, tenantId, await threadPage(ctx, tenantId, limit, before));
    },

    async listMessages(tenantId, threadId, { limit, afterSeq = 0 }) {
      if (!isStorableKey(tenantId, threadId)) return null;
      // Messages leave a thread only with the whole thread, so a row's position is a stable seq.
      const rows = await ctx.db
        .selectFrom("messages")
        .select(["message_id", "role", "content", "created_at"])
        .where("tenant_id", "=", tenantId)
        .where("thread_id", "=", threadId)
        .orderBy("id", "asc")
        .limit(limit)
        .offset(afterSeq)
        .execute();
      if (rows.length === 0 && !(await threadExists(ctx, tenantId, threadId))) return null;
      return rows.map(
        (row, i): ThreadMessage => ({
          seq: afterSeq + i + 1,
          messageId: row.message_id,
          role: row.role as ThreadMessage["role"],
          content: row.content,
          createdAt: row.created_at,
        }),
      );
    },

    async deleteThread(tenantId, threadId) {
      if (!isStorableKey(tenantId, threadId)) return false;
      return ctx.db.transaction().execute(async (db) => {
        const tx: StoreContext = { ...ctx, db };
        if (!(await threadExists(tx, tenantId, threadId))) return false;
        await removeThreadRows(tx, tenantId, threadId);
        return true;
      });
    },
  };
}
