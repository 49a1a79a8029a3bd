import {
  type MessageStore,
  SolError,
  type StoredMessage,
  type ThreadStats,
  type TurnDrift,
  type TurnStatsUpdate,
} from "@solserver/core";
import { CompiledQuery, type Selectable } from "kysely";
import { sqlDialect } from "../drivers/sql-dialect.js";
import { assertStorableKeys, assertStorableText, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { preparedQuery } from "../sql/prepared-query.js";
import { insertRowsRaw } from "../sql/raw-insert.js";
import type { MessagesTable, StoreDialect } from "../sql/schema.js";

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
    .select(["message_count as n", "last_mode_label", "churn_tokens", "last_drift", "domain_tags"])
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

export const MESSAGE_COLUMNS = [
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

/** One thread's stats change as a turn's messages make it (the values of `threadStatsUpsertSql`). */
export interface ThreadStatsWrite {
  readonly tenantId: string;
  readonly threadId: string;
  /** Messages added. */
  readonly added: number;
  readonly lastModeLabel: string | null;
  readonly tokens: number;
  /** 1 adds `tokens` to the churn, 0 restarts it at them. */
  readonly carry: number;
  readonly lastDrift: string | null;
  readonly domainTags: string | null;
}

// `carry` is 1 to add `tokens` to the churn, 0 to set it to them (a checkpoint passes 0 tokens, so
// the churn restarts at 0): a value rather than a branch, so the statement keeps one shape. A null
// drift keeps the stored one, and so do null domain tags (a turn without domain flags).
const upsertTexts = new Map<StoreDialect, string>();

/**
 * The thread stats upsert of one ThreadStatsWrite, its parameters numbered from 1 in
 * `threadStatsParams` order: one text for a statement of its own and for PostgreSQL's exchange
 * statement (turn-exchange-postgres.ts), so the two cannot drift apart.
 */
export function threadStatsUpsertSql(dialect: StoreDialect): string {
  const cached = upsertTexts.get(dialect);
  if (cached !== undefined) return cached;
  const at = sqlDialect(dialect).placeholder;
  const text = statsUpsert(`values (${[1, 2, 3, 4, 5, 6, 7].map(at).join(", ")})`, at(8));
  upsertTexts.set(dialect, text);
  return text;
}

/**
 * PostgreSQL: the same upsert, writing only when the CTE `gate` has its row, its parameters
 * numbered after `offset` (a statement's other parts come first) and cast, as a select list's must be.
 */
export function gatedThreadStatsUpsertSql(gate: string, offset: number): string {
  const types = ["text", "text", "bigint", "text", "bigint", "text", "text"];
  const values = types.map((type, i) => `$${offset + i + 1}::${type}`).join(", ");
  return statsUpsert(`select ${values} from ${gate}`, `$${offset + 8}`);
}

function statsUpsert(source: string, carry: string): string {
  return `insert into "thread_stats" ("tenant_id", "thread_id", "message_count", "last_mode_label",
      "churn_tokens", "last_drift", "domain_tags") ${source}
    on conflict ("tenant_id", "thread_id") do update set
      "message_count" = "thread_stats"."message_count" + "excluded"."message_count",
      "last_mode_label" = coalesce("excluded"."last_mode_label", "thread_stats"."last_mode_label"),
      "churn_tokens" = "excluded"."churn_tokens" + "thread_stats"."churn_tokens" * ${carry},
      "last_drift" = coalesce("excluded"."last_drift", "thread_stats"."last_drift"),
      "domain_tags" = coalesce("excluded"."domain_tags", "thread_stats"."domain_tags")`;
}

/** How many parameters `threadStatsUpsertSql` takes. */
export const THREAD_STATS_PARAMS = 8;

/** The parameters of `threadStatsUpsertSql`, in order. */
export function threadStatsParams(w: ThreadStatsWrite): unknown[] {
  return [w.tenantId, w.threadId, w.added, w.lastModeLabel, w.tokens, w.lastDrift, w.domainTags, w.carry];
}

/** What inserting messages writes: each thread's stats change, then the rows in MESSAGE_COLUMNS order. */
export interface MessageWrites {
  readonly stats: readonly ThreadStatsWrite[];
  readonly rows: readonly (readonly unknown[])[];
}

/** Checks messages and works out their rows and their threads' stats changes (`turn`: churn and drift). */
export function messageWrites(messages: readonly NewMessage[], turn?: TurnStatsUpdate): MessageWrites {
  for (const message of messages) {
    assertStorableKeys({
      tenantId: message.tenantId,
      threadId: message.threadId,
      messageId: message.messageId,
      transmissionId: message.transmissionId,
      modeLabel: message.modeLabel,
    });
    assertStorableText(message.content, "message content");
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
  const lastDrift = turn === undefined ? null : JSON.stringify(turn.drift);
  const domainTags = turn?.domainFlags?.length ? JSON.stringify([...new Set(turn.domainFlags)]) : null;
  // A checkpoint turn's own exchange came with its capsule: churn counts only the turns after it.
  const tokens = turn === undefined || turn.checkpointed ? 0 : Math.max(0, Math.round(turn.tokens));
  const carry = turn?.checkpointed ? 0 : 1;
  return {
    stats: [...added.values()].map(({ tenantId, threadId, n, mode }) => ({
      tenantId,
      threadId,
      added: n,
      lastModeLabel: mode,
      tokens,
      carry,
      lastDrift,
      domainTags,
    })),
    rows: messages.map((message) => [
      message.tenantId,
      message.threadId,
      message.messageId,
      message.role,
      message.content,
      message.transmissionId,
      message.modeLabel ?? null,
      message.createdAt,
    ]),
  };
}

/**
 * Writes `messageWrites`' result: each thread's stats, then the messages in the given order (their
 * order in the thread). Used inside commitTurn, whose transaction keeps rows and stats in step.
 */
export async function writeMessages(ctx: StoreContext, { stats, rows }: MessageWrites): Promise<void> {
  // The stats row first: its row lock (PostgreSQL) makes concurrent commits on one thread take their
  // row ids one after the other, so a turn's messages stay adjacent and ids follow commit order, as
  // SQLite's single writer gives. Inserted after the messages, ids of two turns interleaved.
  for (const w of stats) {
    await ctx.db.executeQuery(CompiledQuery.raw(threadStatsUpsertSql(ctx.dialect), threadStatsParams(w)));
  }
  // The row id (insertion order) is what listRecent sorts by. SQLite inserts a multi-row VALUES in
  // its order: one statement for a turn's two messages. PostgreSQL does not promise serial order
  // within one multi-row INSERT: one statement per message there. Precompiled (hot path).
  if (ctx.dialect === "sqlite") return insertRowsRaw(ctx, "messages", MESSAGE_COLUMNS, rows);
  for (const row of rows) await insertRowsRaw(ctx, "messages", MESSAGE_COLUMNS, [row]);
}

/** A thread_stats row as the stats read selects it (`message_count` as `n`); undefined: no row yet. */
export interface ThreadStatsRow {
  readonly n: number | string | bigint;
  readonly last_mode_label: string | null;
  readonly churn_tokens: number | string | bigint;
  readonly last_drift: string | null;
  readonly domain_tags: string | null;
}

/** A thread's stats as the port returns them. */
export function threadStatsOf(row: ThreadStatsRow | undefined): ThreadStats {
  return {
    messageCount: toNumber(row?.n ?? 0),
    lastModeLabel: row?.last_mode_label ?? null,
    churnTokens: toNumber(row?.churn_tokens ?? 0),
    lastDrift: decodeTurnDrift(row?.last_drift ?? null),
    domainTags: decodeDomainTags(row?.domain_tags ?? null),
  };
}

/** The columns of a messages row that make a StoredMessage. */
export type StoredMessageRow = Omit<Selectable<MessagesTable>, "id">;

/** A messages row as the port returns it. */
export function storedMessageOf(row: StoredMessageRow): StoredMessage {
  return {
    tenantId: row.tenant_id,
    threadId: row.thread_id,
    messageId: row.message_id,
    role: row.role as StoredMessage["role"],
    content: row.content,
    transmissionId: row.transmission_id,
    modeLabel: row.mode_label ?? null,
    createdAt: row.created_at,
  };
}

/** Refuses a window that is not a non-negative integer. */
export function assertWindowLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new SolError("invalid_input", `limit must be a non-negative integer, got ${limit}`);
  }
}

/** MessageStore over the messages table; order is insertion order. */
export function createMessageStore(ctx: StoreContext): MessageStore {
  const threadStats: MessageStore["threadStats"] = async (tenantId, threadId) =>
    threadStatsOf(
      isStorableKey(tenantId, threadId)
        ? (await selectThreadStats(ctx, tenantId, threadId)).rows[0]
        : undefined,
    );
  return {
    async listRecent(tenantId, threadId, limit) {
      assertWindowLimit(limit);
      if (limit === 0 || !isStorableKey(tenantId, threadId)) return [];
      const { rows } = await selectRecent(ctx, tenantId, threadId, limit);
      return rows.reverse().map(storedMessageOf);
    },

    countInThread: async (tenantId, threadId) => (await threadStats(tenantId, threadId)).messageCount,

    threadStats,

    async hasMessage(tenantId, messageId) {
      if (!isStorableKey(tenantId, messageId)) return false;
      const { rows } = await selectMessageId(ctx, tenantId, messageId);
      return rows.length > 0;
    },
  };
}

/** A stored TurnDrift; null for none, or for text this code did not write (read as no recorded drift). */
function decodeTurnDrift(text: string | null): TurnDrift | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const violations = Array.isArray(v.violations) ? v.violations.filter((c) => typeof c === "string") : [];
  return {
    flare: v.flare === true,
    regenerated: v.regenerated === true,
    passed: v.passed !== false,
    violations,
  };
}

/** Stored domain tags; none for null, or for text this code did not write. */
function decodeDomainTags(text: string | null): string[] {
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === "string" && t !== "") : [];
  } catch {
    return [];
  }
}
