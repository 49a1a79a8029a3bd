import { sql } from "kysely";
import type { Migration } from "./ddl.js";

// A tenant's trace appends take turns on one advisory lock, held to commit, because each moves the
// tenant's anchor head (core hash/trace-anchor.ts). A turn's commit took it with one statement and
// held it over three more round trips (read the run's tail and the head, insert, commit): under load,
// 6 to 16 of a two-instance fleet's commits for one tenant waited on it at any moment (bench:gateway
// --store postgres --instances 2). This function takes the lock, reads the head and inserts the next
// anchor in one call; a turn's first commit calls it from a trigger deferred to the commit (below), so
// the commit alone holds the lock. Each of its statements takes a new snapshot (a volatile function
// under READ COMMITTED), so the head it reads is the one the previous holder committed.
// The hash is core's: sha256(prevAnchorHash + canonical JSON of the other four fields), whose keys
// sort as written here; to_json quotes a string as JSON.stringify does for any text PostgreSQL holds.
const CREATE_FUNCTION = `create function sol_trace_anchor(p_tenant text, p_run text, p_tail_seq integer,
  p_tail_hash text) returns integer language plpgsql volatile as $$
  declare
    head_seq integer;
    head_hash text;
    next_seq integer;
    prev_hash text;
  begin
    perform pg_advisory_xact_lock(hashtext(p_tenant), hashtext('sol:trace-anchor-head'));
    select tenant_seq, anchor_hash into head_seq, head_hash from trace_anchors
      where tenant_id = p_tenant order by tenant_seq desc limit 1;
    next_seq := coalesce(head_seq + 1, 0);
    prev_hash := coalesce(head_hash, repeat('0', 64));
    insert into trace_anchors (tenant_id, tenant_seq, trace_run_id, run_tail_seq, run_tail_hash,
        prev_anchor_hash, anchor_hash)
      values (p_tenant, next_seq, p_run, p_tail_seq, p_tail_hash, prev_hash, encode(sha256(convert_to(
        prev_hash || '{"runTailHash":' || to_json(p_tail_hash)::text || ',"runTailSeq":' || p_tail_seq
          || ',"tenantSeq":' || next_seq || ',"traceRunId":' || to_json(p_run)::text || '}',
        'UTF8')), 'hex'));
    return next_seq;
  end $$`;

// A turn's first commit writes its run whole: the events (chained from the genesis hash by the caller)
// in one call, without reading the run's tail first, and the anchor when the transaction commits (the
// trigger below), so the tenant's trace lock is held by the commit alone, with no round trip to the
// client under it. A run that already has events gets nothing and -1, and the caller appends after
// its tail instead. Arrays, one per column, in seq order; metadata is canonical JSON text, which the
// json type keeps as written. The tail's hash, in a setting of this transaction, marks the one row
// the trigger anchors.
const CREATE_APPEND_FIRST = `create function sol_trace_append_first(p_tenant text, p_run text,
  p_transmission text, p_actors text[], p_phases text[], p_statuses text[], p_summaries text[],
  p_metadata text[], p_ts text[], p_prev_hashes text[], p_hashes text[]) returns integer
  language plpgsql volatile as $$
  declare
    n integer := cardinality(p_hashes);
  begin
    if n = 0 or exists (select 1 from trace_events where tenant_id = p_tenant and trace_run_id = p_run) then
      return -1;
    end if;
    -- Before the insert: the trigger's condition is evaluated as each row goes in.
    perform set_config('sol.trace_anchor_tail', p_hashes[n], true);
    insert into trace_events (tenant_id, trace_run_id, seq, transmission_id, actor, phase, status,
        summary, metadata, ts, prev_hash, hash)
      select p_tenant, p_run, (e.ord - 1)::integer, p_transmission, e.actor, e.phase, e.status,
          e.summary, e.metadata::json, e.ts, e.prev_hash, e.hash
        from unnest(p_actors, p_phases, p_statuses, p_summaries, p_metadata, p_ts, p_prev_hashes, p_hashes)
          with ordinality as e(actor, phase, status, summary, metadata, ts, prev_hash, hash, ord);
    return n - 1;
  end $$`;

// Deferred to the commit: fires once, for the tail event sol_trace_append_first marked, after every
// statement of the transaction, and takes the tenant's trace lock there.
const CREATE_ANCHOR_AT_COMMIT = [
  `create function sol_trace_anchor_at_commit() returns trigger language plpgsql volatile as $$
    begin
      perform sol_trace_anchor(new.tenant_id, new.trace_run_id, new.seq, new.hash);
      return null;
    end $$`,
  `create constraint trigger trace_events_anchor_at_commit after insert on trace_events
    deferrable initially deferred for each row
    when (new.hash = current_setting('sol.trace_anchor_tail', true))
    execute function sol_trace_anchor_at_commit()`,
];

/** v24: PostgreSQL's one-call trace writes for a turn's commit (repos/trace-anchor-postgres.ts). SQLite is unchanged. */
export const v24PostgresTraceAnchor: Migration = {
  version: 24,
  name: "postgres-trace-anchor",
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    await sql.raw(CREATE_FUNCTION).execute(db);
    await sql.raw(CREATE_APPEND_FIRST).execute(db);
    for (const statement of CREATE_ANCHOR_AT_COMMIT) await sql.raw(statement).execute(db);
  },
};
