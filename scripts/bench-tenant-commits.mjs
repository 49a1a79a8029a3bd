// One tenant's turn commits racing on PostgreSQL (issue 25, the fleet's numbers): every commit of a
// tenant moves its trace anchor head, so commits take turns on the tenant's trace lock, held to commit.
// The time a commit holds it bounds how many commits a second one tenant gets, however many instances
// the fleet runs. This bench measures that bound apart from the rest of a turn: `--stores` stores (as
// instances would) commit turns with a turn's usual trace (13 events) for one tenant, `--concurrency`
// at a time each, through a TCP proxy that delays every chunk by half of `--rtt-ms` each way (a
// database on another host; 0 goes straight to the server).
//
//   node scripts/bench-tenant-commits.mjs [--rtt-ms 1] [--stores 2] [--concurrency 16] [--duration 8]
//                                         [--warmup 2] [--json]
//
// Prints commits per second, commit latency (p50, p99) and how many commits waited on the tenant's
// trace lock when sampled. SOL_BENCH_PG_URL names the server (default postgres://postgres@127.0.0.1:5432/test).
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import net from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBenchSchema } from "./bench-gateway-fleet.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const numberArg = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a number >= 0`);
  return value;
};
const opts = {
  rttMs: numberArg("--rtt-ms", 1),
  stores: Math.max(1, Math.floor(numberArg("--stores", 2))),
  concurrency: Math.max(1, Math.floor(numberArg("--concurrency", 16))),
  duration: numberArg("--duration", 8),
  warmup: numberArg("--warmup", 2),
};
const PG_URL = process.env.SOL_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const requireServer = createRequire(join(here, "../packages/server/package.json"));
const pg = requireServer("pg");
const { openStore } = await import("../packages/server/dist/store/index.js");

/** A TCP proxy to `target` that delays each chunk by `delayMs`, in order, both ways. */
function delayProxy(target, delayMs) {
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pipe = (from, to) => {
      from.on("data", (chunk) =>
        delayMs > 0 ? setTimeout(() => to.write(chunk), delayMs) : to.write(chunk),
      );
      from.on("end", () => setTimeout(() => to.end(), delayMs));
      from.on("error", () => to.destroy());
    };
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const TENANT = "bench-tenant";
const T0 = new Date().toISOString();
const PHASES = ["receive", "memento_load", "route", "breakpoint", "policy", "checkpoint", "retrieval"];
PHASES.push("assemble", "model_call", "validate", "breakpoint", "memento_update", "respond");

// A turn's drafts, with metadata of a turn's usual size (about 200 bytes each).
function drafts(i) {
  return PHASES.map((phase, k) => ({
    actor: "solserver",
    phase,
    status: "completed",
    summary: `${phase} of turn ${i}`,
    metadata: { step: k, reasons: [`reason ${k} of turn ${i}`, "a second reason"], confidence: 0.9, turn: i },
  }));
}

async function commitOne(store, i) {
  const id = `${process.pid}-${i}-${randomBytes(3).toString("hex")}`;
  const threadId = `thread-${i % 64}`;
  await store.transmissions.claim({
    tenantId: TENANT,
    requestId: `r-${id}`,
    threadId,
    bodyHash: `h-${id}`,
    type: "chat",
    transmissionId: `tx-${id}`,
    traceRunId: `run-${id}`,
    now: T0,
  });
  const started = performance.now();
  const result = await store.commitTurn({
    tenantId: TENANT,
    transmissionId: `tx-${id}`,
    requestId: `r-${id}`,
    bodyHash: `h-${id}`,
    threadId,
    userMessage: { messageId: `u-${id}`, content: `question ${i}` },
    assistantMessage: { messageId: `a-${id}`, content: `answer ${i}`, modeLabel: "assist" },
    bumpTurnsSincePersist: false,
    response: { requestId: `r-${id}`, transmissionId: `tx-${id}`, threadId, answer: `answer ${i}` },
    now: T0,
    trace: { traceRunId: `run-${id}`, drafts: drafts(i), expectEmptyRun: true },
  });
  if (!result.ok) throw new Error(`commit ${i} did not land: ${result.reason}`);
  return performance.now() - started;
}

const schema = await createBenchSchema(pg, PG_URL);
const proxies = [];
const stores = [];
try {
  // Migrations straight to the server; the commits go through the proxy.
  const direct = await openStore(schema.url, { poolMax: 1 });
  await direct.close();
  const url = new URL(schema.url);
  if (opts.rttMs > 0) {
    const proxy = await delayProxy(new URL(PG_URL), opts.rttMs / 2);
    proxies.push(proxy);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.address().port);
  }
  for (let s = 0; s < opts.stores; s++) {
    stores.push(await openStore(url.toString(), { poolMax: opts.concurrency, migrate: false }));
  }
  const lockWaits = [];
  const sampler = new pg.Client({ connectionString: PG_URL });
  await sampler.connect();
  let next = 0;
  let recording = false;
  const latencies = [];
  let stop = false;
  const worker = async (store) => {
    while (!stop) {
      const ms = await commitOne(store, next++);
      if (recording) latencies.push(ms);
    }
  };
  const runners = stores.flatMap((store) => Array.from({ length: opts.concurrency }, () => worker(store)));
  await new Promise((resolve) => setTimeout(resolve, opts.warmup * 1000));
  recording = true;
  const started = performance.now();
  const sampling = setInterval(async () => {
    const { rows } = await sampler.query(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory'",
    );
    lockWaits.push(rows[0].n);
  }, 200);
  await new Promise((resolve) => setTimeout(resolve, opts.duration * 1000));
  recording = false;
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampling);
  stop = true;
  await Promise.all(runners);
  await sampler.end();
  latencies.sort((a, b) => a - b);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const anchors = await stores[0].traces.anchors(TENANT);
  const { findAnchorChainBreak } = await import("../packages/core/dist/index.js");
  const report = {
    ...opts,
    commitsPerSecond: Number((latencies.length / elapsed).toFixed(1)),
    p50Ms: Number(pick(0.5).toFixed(2)),
    p99Ms: Number(pick(0.99).toFixed(2)),
    lockWaitersMean: Number(
      (lockWaits.reduce((a, b) => a + b, 0) / Math.max(1, lockWaits.length)).toFixed(2),
    ),
    anchors: anchors.length,
    anchorChainHolds: findAnchorChainBreak(anchors) === null,
  };
  if (args.includes("--json")) console.log(JSON.stringify(report));
  else {
    console.log(
      `one tenant's turn commits on PostgreSQL: ${opts.stores} store(s) x ${opts.concurrency} at a time, ` +
        `${opts.rttMs} ms round trip to the server, ${opts.duration} s after ${opts.warmup} s warm-up`,
    );
    console.log(
      `  ${report.commitsPerSecond} commits/s, p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms; ` +
        `${report.lockWaitersMean} commits waiting on the tenant's trace lock on average`,
    );
    console.log(`  anchor chain: ${report.anchors} anchors, ${report.anchorChainHolds ? "holds" : "BROKEN"}`);
  }
  if (!report.anchorChainHolds) process.exitCode = 1;
} finally {
  for (const store of stores) await store.close().catch(() => {});
  for (const proxy of proxies) proxy.close();
  await schema.drop();
}
