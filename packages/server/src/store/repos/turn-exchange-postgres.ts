import type { CommitTurnInput } from "@solserver/core";
import { CompiledQuery } from "kysely";
import type { StoreContext } from "../sql/context.js";
import {
  gatedThreadStatsUpsertSql,
  MESSAGE_COLUMNS,
  type MessageWrites,
  THREAD_STATS_PARAMS,
  type ThreadStatsWrite,
  threadStatsParams,
  threadStatsUpsertSql,
} from "./message-store.js";
import { type NewResponse, RESPONSE_COLUMNS, responseRow } from "./response-store.js";
import { isUsualFinish } from "./transmission-store.js";

/** A turn's exchange as PostgreSQL writes it in one statement (see {@link writeExchangePostgres}). */
export interface PostgresExchange {
  /** The thread's stats change. */
  readonly stats: ThreadStatsWrite;
  /** The thread's messages in thread order, values in MESSAGE_COLUMNS order. */
  readonly rows: readonly (readonly unknown[])[];
  /** The stored response's values in RESPONSE_COLUMNS order. */
  readonly response: readonly unknown[];
  /** The delivery attempt's usual finish. */
  readonly finish: {
    readonly tenantId: string;
    readonly attemptId: string;
    readonly status: string;
    readonly endedAt: string;
    readonly latencyMs: number;
  };
}

/**
 * A commit's exchange as PostgreSQL writes it in one statement: null unless the attempt's finish is
 * the usual one and the messages change one thread's stats (any other commit writes them one by one).
 */
export function postgresExchange(
  input: CommitTurnInput,
  messages: MessageWrites,
  response: NewResponse,
): PostgresExchange | null {
  const finish = input.finishAttempt;
  const stats = messages.stats.length === 1 ? messages.stats[0] : undefined;
  if (finish === undefined || !isUsualFinish(finish.patch) || stats === undefined) return null;
  const { status, endedAt, latencyMs } = finish.patch;
  return {
    stats,
    rows: messages.rows,
    response: responseRow(response),
    finish: { tenantId: input.tenantId, attemptId: finish.attemptId, status, endedAt, latencyMs },
  };
}

/**
 * Writes a turn's thread stats, messages, stored response and the attempt's finish in one statement:
 * one round trip where there were four. Each part reads the one before it (`select ... from` its
 * RETURNING), which is what makes PostgreSQL run them in this order; data-modifying CTEs that do not
 * depend on each other run in no promised order. So, as with one statement each: the stats row is
 * locked before the messages take their ids (concurrent commits on one thread keep each turn's
 * messages adjacent and in commit order), the user's message takes its id before the reply's, and the
 * attempt's row is locked last. The attempt's update reads the response part, so it runs after it.
 * False when no such attempt exists (the caller's transaction then rolls the rest back).
 */
export async function writeExchangePostgres(ctx: StoreContext, exchange: PostgresExchange): Promise<boolean> {
  const result = await ctx.db.executeQuery(
    CompiledQuery.raw(exchangeSql(exchange.rows.length), exchangeParams(exchange)),
  );
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** The exchange's parameters, in the order of {@link exchangeParts}' placeholders. */
export function exchangeParams({ stats, rows, response, finish }: PostgresExchange): unknown[] {
  const params = threadStatsParams(stats);
  for (const row of rows) params.push(...row);
  params.push(...response);
  params.push(finish.status, finish.endedAt, finish.latencyMs, finish.tenantId, finish.attemptId);
  return params;
}

/** The exchange as CTEs (`stats`, `message_i`, `response`) and the attempt's update after them. */
export interface ExchangeParts {
  readonly ctes: readonly string[];
  readonly finish: string;
}

// Every value is cast to its column's type: in `insert ... select $n`, a bare parameter would be read
// as text, and PostgreSQL has no assignment cast from text to json.
const MESSAGE_TYPES = {
  tenant_id: "text",
  thread_id: "text",
  message_id: "text",
  role: "text",
  content: "text",
  transmission_id: "text",
  mode_label: "text",
  created_at: "text",
} as const satisfies Record<(typeof MESSAGE_COLUMNS)[number], string>;

const RESPONSE_TYPES = {
  tenant_id: "text",
  request_id: "text",
  transmission_id: "text",
  body_hash: "text",
  response: "json",
  created_at: "text",
} as const satisfies Record<(typeof RESPONSE_COLUMNS)[number], string>;

const sqlByMessages = new Map<number, string>();

function exchangeSql(messageCount: number): string {
  const cached = sqlByMessages.get(messageCount);
  if (cached !== undefined) return cached;
  const { ctes, finish } = exchangeParts(messageCount, 0, null);
  const text = `with ${ctes.join(",\n")}\n  ${finish}`;
  sqlByMessages.set(messageCount, text);
  return text;
}

/**
 * The exchange's parts, placeholders numbered after `offset`. With `gate`, the name of a CTE of at
 * most one row, the thread's stats are written only when it has its row (and so, reading the stats
 * part, is everything after them): that is how a larger statement makes the exchange conditional.
 */
export function exchangeParts(messageCount: number, offset: number, gate: string | null): ExchangeParts {
  let n = offset;
  const values = (types: Record<string, string>, columns: readonly string[]) =>
    columns.map((column) => `$${++n}::${types[column]}`).join(", ");
  const names = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");
  const stats = gate === null ? threadStatsUpsertSql("postgres") : gatedThreadStatsUpsertSql(gate, offset);
  n += THREAD_STATS_PARAMS;
  const ctes = [`stats as (${stats} returning 1 as done)`];
  let previous = "stats";
  for (let i = 1; i <= messageCount; i++) {
    ctes.push(`message_${i} as (insert into "messages" (${names(MESSAGE_COLUMNS)})
      select ${values(MESSAGE_TYPES, MESSAGE_COLUMNS)} from ${previous} returning 1 as done)`);
    previous = `message_${i}`;
  }
  ctes.push(`response as (insert into "responses" (${names(RESPONSE_COLUMNS)})
    select ${values(RESPONSE_TYPES, RESPONSE_COLUMNS)} from ${previous} returning 1 as done)`);
  const at = (i: number) => `$${n + i}`;
  const finish = `update "delivery_attempts" set "status" = ${at(1)}, "ended_at" = ${at(2)}, "latency_ms" = ${at(3)}
  from response
  where "delivery_attempts"."tenant_id" = ${at(4)} and "delivery_attempts"."attempt_id" = ${at(5)}`;
  return { ctes, finish };
}
