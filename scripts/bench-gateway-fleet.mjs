// SolServer as a fleet for the gateway benchmark (issue 25's "PostgreSQL numbers (two instances)"):
// one fresh PostgreSQL schema that every instance shares, the load split over the instances, and their
// readings combined into one row for path (b).
import { randomBytes } from "node:crypto";
import { readCpuMs } from "./proc-stats.mjs";

/**
 * Creates an empty schema on the server `baseUrl` names; `url` is the store URL for it (the store puts
 * `?schema=` on the search_path of every pooled connection, as the PostgreSQL tests do).
 * `pg` is the `pg` module (resolved from packages/server by the caller).
 */
export async function createBenchSchema(pg, baseUrl) {
  const schema = `bench_gateway_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (cause) {
    throw new Error(`PostgreSQL is not reachable at ${redactUrl(baseUrl)} (set SOL_BENCH_PG_URL)`, { cause });
  }
  admin.on("error", () => {});
  await admin.query(`create schema "${schema}"`);
  const url = new URL(baseUrl);
  url.searchParams.set("schema", schema);
  let dropped = false;
  return {
    schema,
    url: url.toString(),
    /** Client backends whose application_name is `appName` (the instances set PGAPPNAME). */
    async backendPids(appName) {
      const { rows } = await admin.query("select pid from pg_stat_activity where application_name = $1", [
        appName,
      ]);
      return rows.map((row) => Number(row.pid));
    },
    /**
     * Gathers the planner's statistics on the run's tables, as autovacuum does in a deployment within
     * its first minute of traffic (this machine's server runs with autovacuum off). Without them the
     * planner can take a tenant-prefix index for a key lookup and scan the tenant's rows on every turn.
     */
    async analyze() {
      const { rows } = await admin.query("select tablename from pg_tables where schemaname = $1", [schema]);
      for (const row of rows) await admin.query(`analyze "${schema}"."${row.tablename}"`);
    },
    /** Turns of the run's schema: all of them, and those still queued or sending (not finished). */
    async turnCounts() {
      const { rows } = await admin.query(
        `select count(*)::int as total, (count(*) filter (where status in ('queued', 'sending')))::int as pending
           from "${schema}".transmissions`,
      );
      return { total: rows[0].total, pending: rows[0].pending };
    },
    async drop() {
      if (dropped) return;
      dropped = true;
      try {
        // A backend of a killed instance may still hold a lock for a moment; do not wait forever.
        await admin.query("set lock_timeout = '15s'");
        await admin.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await admin.end().catch(() => {});
      }
    },
  };
}

/** The URL without its password, for messages and the report. */
export function redactUrl(raw) {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** `total` connections over `n` instances as evenly as they go (the first ones take the remainder). */
export function splitConnections(total, n) {
  if (total < n) throw new Error(`--connections ${total} cannot be spread over ${n} instances`);
  return Array.from({ length: n }, (_, k) => Math.floor(total / n) + (k < total % n ? 1 : 0));
}

/**
 * CPU time of the PostgreSQL backends serving the instances, between `start()` and `stop()`. Backends
 * are found by application name; one that appears during the run counts from zero, one that closes
 * during it is lost (the pool only closes idle clients, and under load none is idle).
 */
export function pgBackendCpu(schema, appName) {
  let before = new Map();
  const read = async () => new Map((await schema.backendPids(appName)).map((pid) => [pid, readCpuMs(pid)]));
  return {
    async start() {
      before = await read();
    },
    async stop() {
      const after = await read();
      let ms = 0;
      for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0);
      return { ms, backends: after.size };
    },
  };
}

/**
 * One result, shaped like autocannon's, from runs made in parallel with `skipAggregateResult` (one per
 * instance). Req/s is the sum of each run's mean per-second count (what autocannon's requests.average
 * is: completed requests over one-second samples). Latency percentiles come from the runs' latency
 * histograms merged (autocannon.aggregateResult), so p50 and p99 are those of every request of the
 * fleet, not a mean or a max of per-instance percentiles. `perInstance` keeps each run's own figures.
 */
export function combineRuns(autocannon, raws, opts) {
  const perInstance = raws.map((raw) => {
    const own = autocannon.aggregateResult([raw], opts);
    return {
      reqPerSec: raw.samples > 0 ? raw.totalCompletedRequests / raw.samples : 0,
      p50Ms: own.latency.p50,
      p99Ms: own.latency.p99,
      sent: raw.totalRequests,
    };
  });
  const merged = autocannon.aggregateResult(raws, opts);
  return {
    requests: { average: perInstance.reduce((sum, r) => sum + r.reqPerSec, 0), sent: merged.requests.sent },
    latency: merged.latency,
    "2xx": merged["2xx"],
    non2xx: merged.non2xx,
    errors: merged.errors,
    timeouts: merged.timeouts,
    perInstance,
  };
}

/**
 * Waits until no turn of the schema is queued or sending. Under a PostgreSQL fleet a turn can wait
 * seconds for its tenant's trace lock after its upstream call, so an upstream count that stops moving
 * does not mean the instances are done; their CPU is read once this returns. False on time-out.
 */
export async function drainTurns(schema, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await schema.turnCounts()).pending === 0) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
