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
// --floor adds (d), a bare Node proxy (Fastify + node:http, no work): the cost of HTTP in and out alone.
// The SolServer child takes its settings from the environment (e.g. SOL_DB_THREAD=main); extra Node flags
// for it alone (V8 heap experiments) go in SOL_BENCH_SOL_NODE_FLAGS.
import { fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuCount, loadAverage, readCpuMs, readThreadCpuMs, sampleRss, threadSplit } from "./proc-stats.mjs";

const here = fileURLToPath(import.meta.url);
const repo = resolve(dirname(here), "..");
const serverDist = join(repo, "packages/server/dist/index.js");
const harnessDist = join(repo, "packages/harness/dist/index.js");
const args = process.argv.slice(2);
const role = argValue("--role");
// --cpu-prof DIR: the SolServer child (and its store thread) write V8 CPU profiles there on exit.
const profileDir = argValue("--cpu-prof");

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
  const asJson = args.includes("--json");
  const withFloor = args.includes("--floor");
  const log = (line) => {
    if (!asJson) console.error(line);
  };
  const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content: PROMPT }] });
  const children = [];
  const tmp = mkdtempSync(join(tmpdir(), "sol-bench-gateway-"));
  const cleanup = () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("exit", cleanup);
  process.on("SIGINT", () => process.exit(130));

  const upstream = await startChild([
    "--role",
    "upstream",
    "--upstream-delay-ms",
    String(opts.upstreamDelayMs),
  ]);
  children.push(upstream.child);
  const upstreamCount = () => ask(upstream.child, { type: "count" }, "count").then((m) => m.value);
  log(`upstream: ${upstream.url} (delay ${opts.upstreamDelayMs} ms)`);

  // (b) SolServer's facade in its own process: SQLite file store, full pipeline, openai provider.
  const sol = await startChild(
    ["--role", "sol"],
    {
      SOL_HOST: "127.0.0.1",
      SOL_PORT: "0",
      SOL_DB_URL: `sqlite:${join(tmp, "sol.db")}`,
      SOL_LLM: "openai",
      SOL_LLM_BASE_URL: upstream.url,
      SOL_LLM_MODEL: MODEL,
      SOL_LLM_MAX_RETRIES: "0",
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_LOG_LEVEL: "silent",
      NODE_ENV: "production",
      // Production refuses to start without a secret for approvals and trace anchors.
      SOL_ACTION_SECRET: randomBytes(32).toString("hex"),
    },
    [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      ...(process.env.SOL_BENCH_SOL_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
    ],
  );
  children.push(sol.child);

  // (c) the Portkey gateway in its own process (it listens on every interface; we only send to 127.0.0.1).
  const port = await freePort();
  const portkey = spawn(process.execPath, [portkeyBin, "--headless", `--port=${port}`], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  children.push(portkey);
  const portkeyUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${portkeyUrl}/`, portkey);

  const paths = [
    { key: "a", label: "upstream direct", url: `${upstream.url}/chat/completions`, headers: {}, pid: null },
    {
      key: "b",
      label: "SolServer facade (SQLite file, full pipeline)",
      url: `${sol.url}/v1/chat/completions`,
      // Every request is a fresh turn: a unique idempotency key per request, one thread per connection.
      headers: { "idempotency-key": "bench-[<id>]" },
      pid: sol.child.pid,
      threadPerConnection: true,
    },
    {
      key: "c",
      label: "Portkey gateway (headless)",
      url: `${portkeyUrl}/v1/chat/completions`,
      headers: { "x-portkey-provider": "openai", "x-portkey-custom-host": upstream.url },
      pid: portkey.pid,
    },
  ];
  if (withFloor) {
    const floor = await startChild(["--role", "floor", "--upstream", upstream.url]);
    children.push(floor.child);
    paths.push({
      key: "d",
      label: "bare Node proxy (Fastify + node:http, no work)",
      url: `${floor.url}/v1/chat/completions`,
      headers: {},
      pid: floor.child.pid,
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
  const storedTurns = (await ask(sol.child, { type: "stats" }, "stats")).transmissions;
  portkey.kill("SIGTERM");
  await stopChild(sol.child);
  await ask(upstream.child, { type: "close" }, null).catch(() => undefined);

  const [a, b, c, d] = results;
  const report = {
    machine: { cpus: cpuCount(), node: process.version, platform: process.platform, loadavg: loadAverage() },
    settings: {
      ...opts,
      prompt: PROMPT,
      solThreads: "one thread per connection, a unique idempotency key per request",
    },
    results,
    rounds: opts.rounds > 1 ? rounds : undefined,
    // Every request sent to SolServer (warm-ups, measured runs and the one check) must be a stored turn.
    solStore: { storedTurns, requestsSent: sentToSol + 1 },
    ratios: {
      throughput_b_over_a: round(b.reqPerSec / a.reqPerSec, 3),
      throughput_b_over_c: round(b.reqPerSec / c.reqPerSec, 3),
      p99_b_over_a: round(b.p99Ms / a.p99Ms, 3),
      p99_b_over_c: round(b.p99Ms / c.p99Ms, 3),
      ...(d?.gatewayCpuMsPerReq && b.gatewayCpuMsPerReq
        ? { cpu_per_request_b_over_d: round(b.gatewayCpuMsPerReq / d.gatewayCpuMsPerReq, 3) }
        : {}),
      cpu_per_request_b_over_c:
        b.gatewayCpuMsPerReq && c.gatewayCpuMsPerReq
          ? round(b.gatewayCpuMsPerReq / c.gatewayCpuMsPerReq, 3)
          : null,
      rss_mean_b_over_c: b.rssMeanMb && c.rssMeanMb ? round(b.rssMeanMb / c.rssMeanMb, 3) : null,
    },
    // Medians of each round's own b/c ratios: the two paths of one round ran minutes apart at most, so
    // these track a machine whose speed drifts better than ratios of medians taken across rounds.
    perRoundRatios:
      opts.rounds > 1
        ? {
            throughput_b_over_c: round(medianOf(rounds.map((r) => r[1].reqPerSec / r[2].reqPerSec)), 3),
            p99_b_over_c: round(medianOf(rounds.map((r) => r[1].p99Ms / r[2].p99Ms)), 3),
            cpu_per_request_b_over_c: rounds.every((r) => r[1].gatewayCpuMsPerReq && r[2].gatewayCpuMsPerReq)
              ? round(medianOf(rounds.map((r) => r[1].gatewayCpuMsPerReq / r[2].gatewayCpuMsPerReq)), 3)
              : null,
            rss_mean_b_over_c: rounds.every((r) => r[1].rssMeanMb && r[2].rssMeanMb)
              ? round(medianOf(rounds.map((r) => r[1].rssMeanMb / r[2].rssMeanMb)), 3)
              : null,
          }
        : undefined,
  };
  if (asJson) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  process.exit(0);
}

/** Warm-up then one measured autocannon run of `path`, with RSS samples and CPU time of its process. */
async function measure(path, roundNo, ctx) {
  const { autocannon, opts, body, log, upstreamCount } = ctx;
  const headers = { "content-type": "application/json", authorization: "Bearer bench", ...path.headers };
  if (roundNo === 1) await checkOnce(path.url, headers, body, path.label);
  let runNo = 0;
  const run = (duration) => {
    runNo += 1;
    let conn = 0;
    const tag = `${path.key}${roundNo}-${runNo}`;
    return autocannon({
      url: path.url,
      method: "POST",
      body,
      headers,
      connections: opts.connections,
      duration,
      idReplacement: true,
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
  const roundLabel = opts.rounds > 1 ? ` round ${roundNo}/${opts.rounds}` : "";
  log(`(${path.key}) ${path.label}${roundLabel}: warm-up ${opts.warmup}s`);
  const warm = opts.warmup > 0 ? await run(opts.warmup) : null;
  await settle(upstreamCount);
  const callsBefore = await upstreamCount();
  const cpuBefore = path.pid === null ? null : readCpuMs(path.pid);
  const threadsBefore = path.pid === null ? null : readThreadCpuMs(path.pid);
  const upstreamCpuBefore = readCpuMs(ctx.upstreamPid);
  const sampler = path.pid === null ? null : sampleRss(path.pid);
  log(
    `(${path.key}) ${path.label}${roundLabel}: measuring ${opts.duration}s at ${opts.connections} connections`,
  );
  const result = await run(opts.duration);
  const rss = sampler?.stop() ?? null;
  // Requests still in flight when the run stops finish at the gateway; count them before reading CPU.
  await settle(upstreamCount);
  const cpu = cpuBefore === null ? null : readCpuMs(path.pid) - cpuBefore;
  const split =
    threadsBefore === null ? null : threadSplit(path.pid, threadsBefore, readThreadCpuMs(path.pid));
  const upstreamCpu = readCpuMs(ctx.upstreamPid) - upstreamCpuBefore;
  const calls = (await upstreamCount()) - callsBefore;
  const sent = result.requests.sent;
  return {
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
      split === null || sent === 0
        ? null
        : {
            main: round(split.mainMs / sent, 3),
            busiestOther: round(split.busiestOtherMs / sent, 3),
            rest: round(split.restMs / sent, 3),
          },
    upstreamCpuMsPerReq: sent === 0 ? null : round(upstreamCpu / sent, 3),
    rssMeanMb: rss ? round(rss.mean / 1024, 1) : null,
    rssPeakMb: rss ? round(rss.peak / 1024, 1) : null,
    warmupSent: warm ? warm.requests.sent : 0,
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
function medianOf(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The row with the median req/s of a path's rounds (a real measurement, not a blend). */
function medianRow(rows) {
  const sorted = [...rows].sort((x, y) => x.reqPerSec - y.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
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
async function checkOnce(url, headers, body, label) {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...headers, "idempotency-key": `check-${Date.now()}`, "x-sol-thread-id": "bench-check" },
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

/** Forks this script in a child role and waits for its `ready` message. */
function startChild(roleArgs, env = {}, execArgv = []) {
  const child = fork(here, roleArgs, {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolveReady, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`child ${roleArgs.join(" ")} exited with ${code}`)));
    child.on("message", (msg) => {
      if (msg?.type === "ready") resolveReady({ child, url: msg.url });
    });
  });
}

/** Sends a message to a child and waits for the reply of type `replyType` (null: no reply expected). */
function ask(child, message, replyType) {
  return new Promise((resolveReply, reject) => {
    if (replyType === null) {
      child.send(message, (err) => (err ? reject(err) : resolveReply(undefined)));
      return;
    }
    const onMessage = (msg) => {
      if (msg?.type === replyType) {
        child.off("message", onMessage);
        resolveReply(msg);
      }
    };
    child.on("message", onMessage);
    child.send(message);
  });
}

function stopChild(child) {
  return new Promise((resolveStop) => {
    child.once("exit", () => resolveStop());
    child.send({ type: "close" });
  });
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForHttp(url, child, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function printReport(report) {
  const { settings, results, ratios, machine, solStore } = report;
  console.log(
    `\nGateway benchmark: ${settings.connections} connections, ${settings.duration}s per path (after ${settings.warmup}s warm-up), ` +
      `${settings.rounds} round(s)${settings.rounds > 1 ? ", median row per path" : ""}, upstream delay ${settings.upstreamDelayMs} ms, ` +
      `${machine.cpus} CPUs, load average ${machine.loadavg?.join(" ") ?? "?"}, Node ${machine.node}\n`,
  );
  const head = [
    "path",
    "req/s",
    "p50 ms",
    "p99 ms",
    "mean ms",
    "2xx",
    "non-2xx",
    "errors",
    "upstream calls/req",
    "gateway CPU ms/req",
    "RSS mean MB",
    "RSS peak MB",
  ];
  const rows = results.map((r) => [
    `(${r.path}) ${r.label}`,
    r.reqPerSec,
    r.p50Ms,
    r.p99Ms,
    r.meanMs,
    r.ok2xx,
    r.non2xx,
    r.errors + r.timeouts,
    r.upstreamCallsPerRequest ?? "-",
    r.gatewayCpuMsPerReq ?? "-",
    r.rssMeanMb ?? "-",
    r.rssPeakMb ?? "-",
  ]);
  const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join(" | ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
  const split = results.filter((r) => r.threadCpuMsPerReq);
  if (split.length > 0) {
    console.log(
      "\ngateway CPU ms per request by thread (main thread | busiest other thread | all other threads):",
    );
    for (const r of split) {
      const t = r.threadCpuMsPerReq;
      console.log(`  (${r.path}) ${r.label}: ${t.main} | ${t.busiestOther} | ${t.rest}`);
    }
  }
  if (report.rounds) {
    console.log("\nper round (req/s, p99 ms, gateway CPU ms/req):");
    report.rounds.forEach((roundRows, i) => {
      console.log(
        `  round ${i + 1}: ${roundRows.map((r) => `(${r.path}) ${r.reqPerSec} r/s, p99 ${r.p99Ms}, cpu ${r.gatewayCpuMsPerReq ?? "-"}`).join("; ")}`,
      );
    });
  }
  console.log(
    `\nSolServer turns stored: ${solStore.storedTurns} of ${solStore.requestsSent} requests sent (warm-up, measured and checks)`,
  );
  console.log(
    `ratios: throughput b/a ${ratios.throughput_b_over_a}, b/c ${ratios.throughput_b_over_c}; ` +
      `p99 b/a ${ratios.p99_b_over_a}, b/c ${ratios.p99_b_over_c}; gateway CPU per request b/c ${ratios.cpu_per_request_b_over_c}; ` +
      `RSS mean b/c ${ratios.rss_mean_b_over_c}`,
  );
  if (ratios.cpu_per_request_b_over_d !== undefined) {
    console.log(`gateway CPU per request b/d ${ratios.cpu_per_request_b_over_d} (d: the bare proxy)`);
  }
  if (report.perRoundRatios) {
    const r = report.perRoundRatios;
    console.log(
      `median of per-round ratios: throughput b/c ${r.throughput_b_over_c}, p99 b/c ${r.p99_b_over_c}, ` +
        `gateway CPU per request b/c ${r.cpu_per_request_b_over_c}, RSS mean b/c ${r.rss_mean_b_over_c}`,
    );
  }
  // Issue 25's goals against Portkey, on the per-round medians when there are rounds.
  const g = report.perRoundRatios ?? ratios;
  const verdict = (value, goal) =>
    value === null ? "n/a" : `${value} (goal <= ${goal}: ${value <= goal ? "met" : "not met"})`;
  console.log(
    `goals b/c: CPU per request ${verdict(g.cpu_per_request_b_over_c, 0.333)}; p99 ${verdict(g.p99_b_over_c, 0.5)}; ` +
      `RSS ${verdict(g.rss_mean_b_over_c, 1)}`,
  );
}
