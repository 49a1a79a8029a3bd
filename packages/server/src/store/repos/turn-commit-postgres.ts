import type { CommitTurnInput, CommitTurnResult } from "@solserver/core";
import { CompiledQuery } from "kysely";
import { encodeJson, isStorableVersion } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import { mementoArcJson } from "./memento-arcs.js";
import { appendFirstArrays } from "./trace-anchor-postgres.js";
import { firstRunRows, TRACE_COLUMNS } from "./trace-store.js";
import { exchangeParams, exchangeParts, type PostgresExchange } from "./turn-exchange-postgres.js";

/** What the statement does to the thread's memento. */
type MementoMode = "none" | "bump" | "insert" | "update";

/** The statement's shape: its text depends on these alone, so one text is prepared per shape. */
interface Shape {
  readonly memento: MementoMode;
  readonly fenced: boolean;
  readonly traced: boolean;
  readonly messages: number;
}

/**
 * PostgreSQL: a turn's whole commit as one statement, outside any transaction: one round trip where
 * BEGIN, four statements and COMMIT took six. Every check comes first, under the row locks the
 * transaction took (the transmission's fence, the attempt, the memento's version, an empty trace
 * run), and every write reads the checks' row, so a failed check writes nothing; a failure the
 * checks cannot see (a memento inserted meanwhile, a second commit of the request) is an error, which
 * ends the statement and with it everything it wrote. `exchange` is the turn's exchange
 * (postgresExchange: a commit with an unusual finish has none and never comes here). Null when nothing
 * was written: the turn is not of the shape this statement writes (a trace appended to a run's tail) or
 * a check failed. The caller then runs the transaction, which writes the turn or says why it cannot.
 */
export async function commitTurnAtOnce(
  ctx: StoreContext,
  input: CommitTurnInput,
  exchange: PostgresExchange,
): Promise<CommitTurnResult | null> {
  const trace = input.trace;
  const memento = mementoMode(input);
  if (memento === null) return null;
  if (trace !== undefined && (trace.expectEmptyRun !== true || trace.drafts.length === 0)) return null;
  const shape: Shape = {
    memento,
    fenced: input.leaseOwner !== undefined,
    traced: trace !== undefined,
    messages: exchange.rows.length,
  };
  const params = checkParams(ctx, input, shape);
  params.push(...exchangeParams(exchange));
  let row: { done: number; memento_version: number | null; finished: number } | undefined;
  try {
    const result = await ctx.db.executeQuery<{
      done: number;
      memento_version: number | null;
      finished: number;
    }>(CompiledQuery.raw(commitSql(shape), params));
    row = result.rows[0];
  } catch (error) {
    // A memento inserted since the check, or the request committed by another: the transaction says which.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  if (row === undefined || row.done !== 1) return null;
  // The attempt's row was locked by the checks, so its update cannot miss it.
  if (row.finished !== 1) {
    throw new Error(`commitTurnAtOnce: attempt ${exchange.finish.attemptId} not finished`);
  }
  return {
    ok: true,
    mementoVersion: memento === "insert" || memento === "update" ? Number(row.memento_version) : null,
  };
}

// Null: a version no row can hold, which the transaction reports as the conflict it is.
function mementoMode(input: CommitTurnInput): MementoMode | null {
  if (input.memento === undefined) return input.bumpTurnsSincePersist ? "bump" : "none";
  const expected = input.memento.expectedVersion;
  if (expected === null) return "insert";
  return isStorableVersion(expected) ? "update" : null;
}

/** The parameters before the exchange's, by name; a shape numbers those it uses (slots). */
type Slot =
  | "tenant"
  | "transmission"
  | "now"
  | "attempt"
  | "thread"
  | "owner"
  | "memento"
  | "arc"
  | "expected"
  | "run";

// A statement's parameters must each be used (PostgreSQL cannot type one it never sees), so a
// shape numbers only the slots its text refers to, in this order; the events' eight arrays follow.
function slots(shape: Shape): Slot[] {
  const names: Slot[] = ["tenant", "transmission", "now", "attempt"];
  if (shape.memento !== "none") names.push("thread");
  if (shape.fenced) names.push("owner");
  if (shape.memento === "insert" || shape.memento === "update") names.push("memento", "arc");
  if (shape.memento === "update") names.push("expected");
  if (shape.traced) names.push("run");
  return names;
}

const TRACE_ARRAYS = 8;

function checkParams(ctx: StoreContext, input: CommitTurnInput, shape: Shape): unknown[] {
  const memento = input.memento;
  const values: Record<Slot, unknown> = {
    tenant: input.tenantId,
    transmission: input.transmissionId,
    now: input.now,
    attempt: input.finishAttempt?.attemptId,
    thread: input.threadId,
    owner: input.leaseOwner,
    memento: memento === undefined ? undefined : encodeJson(memento.value, "memento"),
    arc: memento === undefined ? undefined : mementoArcJson(memento.value),
    expected: memento?.expectedVersion,
    run: input.trace?.traceRunId,
  };
  const params = slots(shape).map((slot) => values[slot]);
  const trace = input.trace;
  if (shape.traced && trace !== undefined) {
    const rows = firstRunRows(
      input.tenantId,
      trace.traceRunId,
      input.transmissionId,
      trace.drafts,
      ctx.nowIso,
    );
    params.push(...appendFirstArrays(TRACE_COLUMNS, rows));
  }
  return params;
}

const sqlByShape = new Map<string, string>();

function commitSql(shape: Shape): string {
  const key = `${shape.memento}:${shape.fenced}:${shape.traced}:${shape.messages}`;
  const cached = sqlByShape.get(key);
  if (cached !== undefined) return cached;
  const names = slots(shape);
  const $ = (slot: Slot) => `$${names.indexOf(slot) + 1}`;
  const { ctes, gate } = checkCtes(shape, $, names.length);
  ctes.push(`marked as (update "transmissions" set "status" = 'succeeded', "updated_at" = ${$("now")}
    where "tenant_id" = ${$("tenant")} and "transmission_id" = ${$("transmission")}
      and exists (select 1 from ${gate}))`);
  const memento = mementoCte(shape.memento, gate, $);
  if (memento !== null) ctes.push(memento);
  const offset = names.length + (shape.traced ? TRACE_ARRAYS : 0);
  const exchange = exchangeParts(shape.messages, offset, gate);
  ctes.push(...exchange.ctes, `fin as (${exchange.finish} returning 1 as done)`);
  const version =
    shape.memento === "insert" || shape.memento === "update" ? `(select "version" from memo)` : "null";
  const text = `with ${ctes.join(",\n")}
  select (select count(*) from ${gate})::integer as done, ${version}::integer as memento_version,
    (select count(*) from fin)::integer as finished`;
  sqlByShape.set(key, text);
  return text;
}

// The checks, each under the row lock the transaction would take, and the gate: the CTE of one row
// when they all passed (and, traced, the run's events were written), of none otherwise. The events'
// arrays are numbered after the `slotCount` slots.
function checkCtes(
  shape: Shape,
  $: (slot: Slot) => string,
  slotCount: number,
): { ctes: string[]; gate: string } {
  const locksMemento = shape.memento !== "none";
  const ctes = [
    `tx as materialized (select 1 from "transmissions" where "tenant_id" = ${$("tenant")}
      and "transmission_id" = ${$("transmission")} and "status" in ('queued', 'sending')${
        shape.fenced ? ` and "lease_owner" = ${$("owner")}` : ""
      } for update)`,
    `att as materialized (select 1 from "delivery_attempts" where "tenant_id" = ${$("tenant")}
      and "attempt_id" = ${$("attempt")} for update)`,
  ];
  if (locksMemento) {
    ctes.push(`memo_now as materialized (select "version" from "mementos" where "tenant_id" = ${$("tenant")}
      and "thread_id" = ${$("thread")} for update)`);
  }
  const conditions = ["true"];
  if (shape.memento === "update") conditions.push(`memo_now."version" = ${$("expected")}::integer`);
  if (shape.memento === "insert") conditions.push(`memo_now."version" is null`);
  if (shape.traced) {
    conditions.push(`not exists (select 1 from "trace_events" where "tenant_id" = ${$("tenant")}
      and "trace_run_id" = ${$("run")})`);
  }
  ctes.push(`ready as materialized (select 1 as done from tx cross join att
    ${locksMemento ? "left join memo_now on true " : ""}where ${conditions.join(" and ")})`);
  if (!shape.traced) return { ctes, gate: "ready" };
  // The events go in first: the function writes nothing and answers -1 for a run that has events.
  const arrays = Array.from({ length: TRACE_ARRAYS }, (_, i) => `$${slotCount + i + 1}::text[]`);
  ctes.push(`trace as materialized (select sol_trace_append_first(${$("tenant")}, ${$("run")},
      ${$("transmission")}, ${arrays.join(", ")}) as seq from ready)`);
  ctes.push(`go as materialized (select 1 as done from trace where seq >= 0)`);
  return { ctes, gate: "go" };
}

// The memento's write, as the transaction's putMemento or bump makes it, once the checks passed.
function mementoCte(mode: MementoMode, gate: string, $: (slot: Slot) => string): string | null {
  if (mode === "update") {
    return `memo as (update "mementos" set "memento" = ${$("memento")}::jsonb, "version" = "version" + 1,
      "arc" = ${$("arc")}, "arc_version" = "version" + 1, "turns_since_persist" = 0, "updated_at" = ${$("now")},
      "changed_by_put" = 0 where "tenant_id" = ${$("tenant")} and "thread_id" = ${$("thread")}
      and exists (select 1 from ${gate}) returning "version")`;
  }
  if (mode === "insert") {
    return `memo as (insert into "mementos" ("tenant_id", "thread_id", "memento", "version", "arc",
      "arc_version", "turns_since_persist", "created_at", "updated_at", "changed_by_put")
      select ${$("tenant")}::text, ${$("thread")}::text, ${$("memento")}::jsonb, 1, ${$("arc")}::json, 1, 0,
        ${$("now")}::text, ${$("now")}::text, 0 from ${gate} returning "version")`;
  }
  if (mode === "bump") {
    // A turn read the PUT's change, so it is no longer news for the next one (as bumpTurns).
    return `memo as (update "mementos" set "turns_since_persist" = "turns_since_persist" + 1,
      "changed_by_put" = 0 where "tenant_id" = ${$("tenant")} and "thread_id" = ${$("thread")}
      and exists (select 1 from ${gate}))`;
  }
  return null;
}
