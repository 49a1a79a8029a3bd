#!/usr/bin/env node
// Side-by-side gateway benchmark on one machine, in one run, loopback only. A scripted OpenAI-compatible
// upstream (own process) answers every call; three paths are then loaded in turn with autocannon at the
// same concurrency and duration:
//   (a) straight to the upstream's /v1/chat/completions
//   (b) SolServer's OpenAI facade: SQLite file store, the full turn pipeline, the `openai` provider -> upstream
//   (c) the Portkey gateway (@portkey-ai/gateway, --headless) with x-portkey-provider: openai and
//       x-portkey-custom-host: <upstream>/v1
// SolServer and Portkey each run in their own child process; their RSS is sampled from /proc during the run
// and their CPU time per request is read from /proc (robust on a busy machine, where req/s is not).
// With --rounds N the three paths are measured N times in turn and the median row of each is reported.
// Imports the BUILT server and harness (run `npm run bench:gateway`, which builds first).
//   node scripts/bench-gateway.mjs [--connections 50] [--duration 10] [--warmup 3] [--rounds 1]
//                                  [--upstream-delay-ms 0] [--floor] [--json] [--cpu-prof DIR]
//                                  [--store sqlite|postgres] [--instances 1]
// --floor adds (d), a bare Node proxy (Fastify + node:http, no work): the cost of HTTP in and out alone.
// --store postgres puts (b) on PostgreSQL (SOL_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test):
// one fresh schema for the run, dropped afterwards, whose tables are ANALYZEd after each warm-up of (b) (as
// autovacuum would in a deployment; without statistics the planner may scan a tenant's rows per lookup).
// The CPU of the PostgreSQL backends serving SolServer is read from /proc too and shown apart (it is not in the gateway's CPU, as a SQLite store thread's would be).
// --instances N (PostgreSQL only) runs N SolServer processes on that one schema; (b)'s connections are
// split evenly over them, one autocannon run per instance in parallel, and its row combines them: req/s
// summed, p50/p99 from the merged latency histograms, CPU per request = every instance's CPU over all
// requests, RSS as the sum (the fleet's memory, which the RSS ratio and goal use) and the per-instance mean.
// The SolServer children take their settings from the environment (e.g. SOL_DB_THREAD=main); extra Node
// flags for them alone (V8 heap experiments) go in SOL_BENCH_SOL_NODE_FLAGS.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ask, freePort, startChild, stopChild, waitForHttp } from "./bench-children.mjs";
import {
  combineRuns,
  createBenchSchema,
  drainTurns,
  pgBackendCpu,
  redactUrl,
  splitConnections,
} from "./bench-gateway-fleet.mjs";
import { buildReport, medianRow, printReport, round } from "./bench-gateway-report.mjs";
import { readCpuMs, readThreadCpuMs, sampleRss, threadSplit } from "./proc-stats.mjs";

const here = fileURLToPath(import.meta.url);
const repo = resolve(dirname(here), "..");
const serverDist = join(repo, "packages/server/dist/index.js");
const harnessDist = join(repo, "packages/harness/dist/index.js");
const args = process.argv.slice(2);
const role = argValue("--role");
// --cpu-prof DIR: the SolServer child (and its store thread) write V8 CPU profiles there on exit.
const profileDir = argValue("--cpu-prof");
const PG_URL = process.env.SOL_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function argValue(name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function numberArg(name, fallback) {
  const raw = argValue(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

/** One line per turn: a short, ordinary request that the router decides deterministically. */
const PROMPT = "Give me three ideas for a healthy lunch.";
const MODEL = "bench-model";

// ---------------------------------------------------------------- child roles

/** Tells the parent (IPC) where a child role listens; prints it when started by hand. */
function announce(url) {
  if (process.send) process.send({ type: "ready", url });
  else console.log(url);
}

if (role === "upstream") {
  const { startScriptedUpstream, echoEnvelope } = await import(harnessDist);
  const delayMs = numberArg("--upstream-delay-ms", 0);
  const upstream = await startScriptedUpstream({
    host: "127.0.0.1",
    record: false,
    fallback: (request) => ({ kind: "json", body: echoEnvelope(request), delayMs }),
  });
  process.on("message", async (msg) => {
    if (msg?.type === "count") process.send({ type: "count", value: upstream.requestCount });
    if (msg?.type === "close") {
      await upstream.close();
      process.exit(0);
    }
  });
  announce(upstream.url);
} else if (role === "sol") {
  const { createSolServer, loadConfig } = await import(serverDist);
  const server = await createSolServer(loadConfig({ env: process.env }), { logger: false });
  const url = await server.listen();
  // A clean exit on SIGTERM too, so `--cpu-prof` runs of this role write their profile.
  process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
  process.on("message", async (msg) => {
    if (msg?.type === "stats") {
      process.send({ type: "stats", transmissions: await server.store.transmissions.count() });
    }
    if (msg?.type === "close") {
      await server.close();
      process.exit(0);
    }
  });
  announce(url);
} else if (role === "floor") {
  // A gateway that does nothing: parse the JSON body, forward it over a keep-alive socket, relay the
  // answer. What any Node gateway pays for HTTP in and out on this machine, before doing any work.
  const require = createRequire(join(repo, "packages/server/package.json"));
  const Fastify = require("fastify");
  const { Agent, request } = await import("node:http");
  const target = new URL(argValue("--upstream"));
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const app = Fastify({ logger: false });
  app.post("/v1/chat/completions", (req, reply) => {
    const payload = JSON.stringify(req.body);
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}/chat/completions`,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          reply
            .code(res.statusCode ?? 502)
            .header("content-type", "application/json")
            .send(Buffer.concat(chunks)),
        );
      },
    );
    out.on("error", (error) => reply.code(502).send({ error: { message: error.message } }));
    out.end(payload);
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  process.on("message", (msg) => {
    if (msg?.type === "close") app.close().then(() => process.exit(0));
  });
  announce(url);
} else {
  await main();
}

// ---------------------------------------------------------------- orchestration

async function main() {
  for (const dist of [serverDist, harnessDist]) {
    if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`npm run build\` first`);
  }
  const require = createRequire(join(repo, "packages/server/package.json"));
  const autocannon = require("autocannon");
  // The gateway is the harness's dev dependency, so it is resolved from there.
  const harnessRequire = createRequire(join(repo, "packages/harness/package.json"));
  const portkeyBin = join(
    dirname(harnessRequire.resolve("@portkey-ai/gateway/package.json")),
    "build/start-server.js",
  );
  const opts = {
    connections: numberArg("--connections", 50),
    duration: numberArg("--duration", 10),
    warmup: numberArg("--warmup", 3),
    rounds: Math.max(1, Math.floor(numberArg("--rounds", 1))),
    upstreamDelayMs: numberArg("--upstream-delay-ms", 0),
  };
  const store = argValue("--store") ?? "sqlite";
  if (store !== "sqlite" && store !== "postgres") throw new Error("--store must be sqlite or postgres");
  const instances = Math.floor(numberArg("--instances", 1));
  if (instances < 1) throw new Error("--instances must be 1 or more");
  // A SQLite file store belongs to one process (its store thread); a fleet shares PostgreSQL.
  if (instances > 1 && store !== "postgres") throw new Error("--instances above 1 needs --store postgres");
  splitConnections(opts.connections, instances);
  const asJson = args.includes("--json");
  const log = (line) => {
    if (!asJson) console.error(line);
  };
  const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content: PROMPT }] });
  const children = [];
  const tmp = mkdtempSync(join(tmpdir(), "sol-bench-gateway-"));
  let schema = null;
  const killChildren = () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  };
  const cleanup = () => {
    killChildren();
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("exit", cleanup);
  // The schema's drop is asynchronous: the children go first (their connections), then the drop, then exit.
  let interrupted = false;
  process.on("SIGINT", () => {
    interrupted = true;
    killChildren();
    Promise.resolve(schema?.drop())
      .catch(() => undefined)
      .finally(() => process.exit(130));
  });

  if (store === "postgres") {
    schema = await createBenchSchema(require("pg"), PG_URL);
    log(`PostgreSQL: ${redactUrl(PG_URL)}, schema ${schema.schema} (dropped at the end)`);
  }
  let report;
  try {
    report = await runPaths({
      autocannon,
      portkeyBin,
      opts,
      store,
      instances,
      schema,
      body,
      log,
      children,
      tmp,
    });
  } catch (error) {
    // After Ctrl-C the run fails on its killed children; the SIGINT handler drops the schema and exits.
    if (interrupted) await new Promise(() => {});
    throw error;
  } finally {
    killChildren();
    await schema?.drop();
  }
  if (asJson) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  process.exit(0);
}

/** Starts the upstream and the gateways, measures every path `opts.rounds` times, and builds the report. */
async function runPaths({
  autocannon,
  portkeyBin,
  opts,
  store,
  instances,
  schema,
  body,
  log,
  children,
  tmp,
}) {
  const withFloor = args.includes("--floor");
  const upstream = await startChild(here, [
    "--role",
    "upstream",
    "--upstream-delay-ms",
    String(opts.upstreamDelayMs),
  ]);
  children.push(upstream.child);
  const upstreamCount = () => ask(upstream.child, { type: "count" }, "count").then((m) => m.value);
  log(`upstream: ${upstream.url} (delay ${opts.upstreamDelayMs} ms)`);

  // (b) SolServer's facade, each instance in its own process: full pipeline, openai provider, and a
  // SQLite file store or, with --store postgres, the run's schema that all instances share.
  const pgAppName = `sol-bench-gateway-${process.pid}`;
  const solEnv = {
    SOL_HOST: "127.0.0.1",
    SOL_PORT: "0",
    SOL_DB_URL: schema ? schema.url : `sqlite:${join(tmp, "sol.db")}`,
    // The PostgreSQL backends serving the instances carry this name, so their CPU can be read.
    ...(schema ? { PGAPPNAME: pgAppName } : {}),
    SOL_LLM: "openai",
    SOL_LLM_BASE_URL: upstream.url,
    SOL_LLM_MODEL: MODEL,
    SOL_LLM_MAX_RETRIES: "0",
    SOL_RATE_LIMIT_PER_MIN: "0",
    SOL_LOG_LEVEL: "silent",
    NODE_ENV: "production",
    // Production refuses to start without a secret for approvals and trace anchors; a fleet shares one.
    SOL_ACTION_SECRET: randomBytes(32).toString("hex"),
  };
  const sols = [];
  // One after another: the first applies the migrations, the others find the schema up to date.
  for (let k = 0; k < instances; k++) {
    const sol = await startChild(here, ["--role", "sol"], solEnv, [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      ...(process.env.SOL_BENCH_SOL_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
    ]);
    children.push(sol.child);
    sols.push(sol);
  }

  // (c) the Portkey gateway in its own process (it listens on every interface; we only send to 127.0.0.1).
  const port = await freePort();
  const portkey = spawn(process.execPath, [portkeyBin, "--headless", `--port=${port}`], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  children.push(portkey);
  const portkeyUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${portkeyUrl}/`, portkey);

  const one = (url, pid) => [{ url, pid }];
  const paths = [
    {
      key: "a",
      label: "upstream direct",
      targets: one(`${upstream.url}/chat/completions`, null),
      headers: {},
    },
    {
      key: "b",
      label: schema
        ? `SolServer facade (PostgreSQL, ${instances === 1 ? "1 instance" : `${instances} instances`}, full pipeline)`
        : "SolServer facade (SQLite file, full pipeline)",
      targets: sols.map((sol) => ({ url: `${sol.url}/v1/chat/completions`, pid: sol.child.pid })),
      // Every request is a fresh turn: a unique idempotency key per request, one thread per connection.
      headers: { "idempotency-key": "bench-[<id>]" },
      threadPerConnection: true,
      pgCpu: schema ? pgBackendCpu(schema, pgAppName) : null,
      drain: schema ? () => drainTurns(schema) : null,
      analyze: schema ? () => schema.analyze() : null,
    },
    {
      key: "c",
      label: "Portkey gateway (headless)",
      targets: one(`${portkeyUrl}/v1/chat/completions`, portkey.pid),
      headers: { "x-portkey-provider": "openai", "x-portkey-custom-host": upstream.url },
    },
  ];
  if (withFloor) {
    const floor = await startChild(here, ["--role", "floor", "--upstream", upstream.url]);
    children.push(floor.child);
    paths.push({
      key: "d",
      label: "bare Node proxy (Fastify + node:http, no work)",
      targets: one(`${floor.url}/v1/chat/completions`, floor.child.pid),
      headers: {},
    });
  }
  const ctx = { autocannon, opts, body, log, upstreamCount, upstreamPid: upstream.child.pid };
  const rounds = [];
  for (let round = 1; round <= opts.rounds; round++) {
    // The order rotates each round (a b c, b c a, c a b, ...): on a machine whose speed drifts, a
    // fixed order would always give the same path the same slot.
    const rows = new Array(paths.length);
    for (let k = 0; k < paths.length; k++) {
      const i = (k + round - 1) % paths.length;
      rows[i] = await measure(paths[i], round, ctx);
    }
    rounds.push(rows);
  }
  const results = paths.map((_, i) => medianRow(rounds.map((rows) => rows[i])));
  const sentToSol = rounds.reduce((sum, rows) => sum + rows[1].sent + rows[1].warmupSent, 0);
  // With PostgreSQL every instance writes to the one schema, so any instance's count is the fleet's.
  const storedTurns = (await ask(sols[0].child, { type: "stats" }, "stats")).transmissions;
  const unfinishedTurns = schema ? (await schema.turnCounts()).pending : undefined;
  portkey.kill("SIGTERM");
  await Promise.all(sols.map((sol) => stopChild(sol.child)));
  await ask(upstream.child, { type: "close" }, null).catch(() => undefined);
  return buildReport({
    opts,
    store,
    instances,
    pgUrl: redactUrl(PG_URL),
    prompt: PROMPT,
    results,
    rounds,
    storedTurns,
    unfinishedTurns,
    requestsSent: sentToSol + instances,
  });
}

/**
 * Warm-up then one measured autocannon run of `path`, with RSS samples and CPU time of its process(es).
 * A path with several targets (SolServer instances) gets one run per target in parallel, the
 * connections split over them, combined by combineRuns; CPU, thread splits and RSS are summed.
 */
async function measure(path, roundNo, ctx) {
  const { autocannon, opts, body, log, upstreamCount } = ctx;
  const headers = { "content-type": "application/json", authorization: "Bearer bench", ...path.headers };
  const { targets } = path;
  const fleet = targets.length > 1;
  if (roundNo === 1) {
    for (const [k, target] of targets.entries()) {
      await checkOnce(target.url, headers, body, fleet ? `${path.label} instance ${k + 1}` : path.label, k);
    }
  }
  const split = splitConnections(opts.connections, targets.length);
  let runNo = 0;
  const runOne = (target, connections, tag, duration) => {
    let conn = 0;
    return autocannon({
      url: target.url,
      method: "POST",
      body,
      headers,
      connections,
      duration,
      idReplacement: true,
      // Keeps the encoded latency histogram in the result, so the runs can be merged.
      ...(fleet ? { skipAggregateResult: true } : {}),
      ...(path.threadPerConnection
        ? {
            setupClient: (client) => {
              conn += 1;
              client.setHeaders({ ...headers, "x-sol-thread-id": `bench-${tag}-c${conn}` });
            },
          }
        : {}),
    });
  };
  const run = async (duration) => {
    runNo += 1;
    const tag = `${path.key}${roundNo}-${runNo}`;
    if (!fleet) return runOne(targets[0], opts.connections, tag, duration);
    const raws = await Promise.all(targets.map((t, k) => runOne(t, split[k], `${tag}-i${k + 1}`, duration)));
    return combineRuns(autocannon, raws, { url: targets[0].url, connections: opts.connections });
  };
  const roundLabel = opts.rounds > 1 ? ` round ${roundNo}/${opts.rounds}` : "";
  log(`(${path.key}) ${path.label}${roundLabel}: warm-up ${opts.warmup}s`);
  const warm = opts.warmup > 0 ? await run(opts.warmup) : null;
  await settle(upstreamCount);
  await drain(path, log);
  // After each warm-up, so the statistics follow the tables as they grow, as autovacuum's would.
  await path.analyze?.();
  const callsBefore = await upstreamCount();
  await path.pgCpu?.start();
  const pids = targets.map((t) => t.pid).filter((pid) => pid !== null);
  const cpuBefore = pids.map((pid) => readCpuMs(pid));
  const threadsBefore = pids.map((pid) => readThreadCpuMs(pid));
  const upstreamCpuBefore = readCpuMs(ctx.upstreamPid);
  const samplers = pids.map((pid) => sampleRss(pid));
  log(
    `(${path.key}) ${path.label}${roundLabel}: measuring ${opts.duration}s at ${opts.connections} connections` +
      (fleet ? ` (${split.join(" + ")})` : ""),
  );
  const result = await run(opts.duration);
  const rss = samplers.map((sampler) => sampler.stop());
  // Requests still in flight when the run stops finish at the gateway; count them before reading CPU.
  await settle(upstreamCount);
  await drain(path, log);
  const cpus = pids.map((pid, k) => readCpuMs(pid) - cpuBefore[k]);
  const splits = pids.map((pid, k) => threadSplit(pid, threadsBefore[k], readThreadCpuMs(pid)));
  const pgCpu = (await path.pgCpu?.stop()) ?? null;
  const upstreamCpu = readCpuMs(ctx.upstreamPid) - upstreamCpuBefore;
  const calls = (await upstreamCount()) - callsBefore;
  const sent = result.requests.sent;
  const cpu = pids.length === 0 ? null : sum(cpus);
  const threads = pids.length === 0 || splits.includes(null) ? null : sumSplits(splits);
  const rssKnown = rss.length > 0 && !rss.includes(null);
  const row = {
    path: path.key,
    label: path.label,
    reqPerSec: round(result.requests.average, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: round(result.latency.average, 2),
    sent,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    upstreamCallsPerRequest: sent > 0 ? round(calls / sent, 3) : null,
    gatewayCpuMsPerReq: cpu === null || sent === 0 ? null : round(cpu / sent, 3),
    // Where the gateway's CPU went: its main thread, its busiest other thread, all the rest.
    threadCpuMsPerReq:
      threads === null || sent === 0
        ? null
        : {
            main: round(threads.mainMs / sent, 3),
            busiestOther: round(threads.busiestOtherMs / sent, 3),
            rest: round(threads.restMs / sent, 3),
          },
    upstreamCpuMsPerReq: sent === 0 ? null : round(upstreamCpu / sent, 3),
    // With several instances: sums over them (the fleet's memory; the peak, a sum of each one's own peak).
    rssMeanMb: rssKnown ? round(sum(rss.map((r) => r.mean)) / 1024, 1) : null,
    rssPeakMb: rssKnown ? round(sum(rss.map((r) => r.peak)) / 1024, 1) : null,
    warmupSent: warm ? warm.requests.sent : 0,
  };
  if (pgCpu !== null) {
    row.pgBackendCpuMsPerReq = sent === 0 ? null : round(pgCpu.ms / sent, 3);
    row.pgBackends = pgCpu.backends;
  }
  if (fleet) {
    row.instances = targets.length;
    row.rssMeanPerInstanceMb = rssKnown ? round(sum(rss.map((r) => r.mean)) / rss.length / 1024, 1) : null;
    row.perInstance = result.perInstance.map((p, k) => ({
      connections: split[k],
      reqPerSec: round(p.reqPerSec, 1),
      p50Ms: p.p50Ms,
      p99Ms: p.p99Ms,
      sent: p.sent,
      gatewayCpuMsPerReq: p.sent > 0 ? round(cpus[k] / p.sent, 3) : null,
      rssMeanMb: rss[k] ? round(rss[k].mean / 1024, 1) : null,
    }));
  }
  return row;
}

function sum(values) {
  return values.reduce((total, v) => total + v, 0);
}

/** Thread splits of several processes added field by field. */
function sumSplits(splits) {
  return {
    mainMs: sum(splits.map((s) => s.mainMs)),
    busiestOtherMs: sum(splits.map((s) => s.busiestOtherMs)),
    restMs: sum(splits.map((s) => s.restMs)),
  };
}

/** With PostgreSQL, waits for (b)'s unfinished turns as well (see drainTurns). */
async function drain(path, log) {
  if (path.drain && !(await path.drain()))
    log(`(${path.key}) turns still unfinished after 60 s; reading anyway`);
}

/** Waits until the upstream's request count stops moving (in-flight turns have finished). */
async function settle(upstreamCount) {
  let last = await upstreamCount();
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await upstreamCount();
    if (now === last) return;
    last = now;
  }
}

/** One request before the load: the path must answer a real chat.completion. */
async function checkOnce(url, headers, body, label, index = 0) {
  const res = await fetch(url, {
    method: "POST",
    // The index keeps two instances' checks in one millisecond from sharing a key (one stored turn).
    headers: {
      ...headers,
      "idempotency-key": `check-${Date.now()}-${index}`,
      "x-sol-thread-id": "bench-check",
    },
    body,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (
    res.status !== 200 ||
    json?.object !== "chat.completion" ||
    typeof json?.choices?.[0]?.message?.content !== "string"
  ) {
    throw new Error(`${label} did not answer a chat.completion (HTTP ${res.status}): ${text.slice(0, 300)}`);
  }
}
