#!/usr/bin/env node
// npm run bench: what the control plane costs.
//   (a) one whole turn through the TurnService wired as `sol serve` wires it (offline provider, SQLite
//       memory and file; memory search, CRA checkpoints, pinned contexts, Driver Blocks) against its
//       baseline, the same offline provider calls alone;
//   (b) the pure per-turn engines: route() + Driver Block policy resolve (compile) + assemblePrompt
//       + parse/lintOutput on a typical turn;
//   (c) HTTP: autocannon against POST /v1/chat (SQLite file, a new requestId per request, so every
//       request is a real turn) against a bare Fastify route returning the same JSON;
//   (d) cost growth (scripts/bench-growth.mjs): (a)'s turn on a SQLite file whose tenant already holds
//       1,000,000 trace events and 100,000 memories, against the same turns on an empty file, with the
//       store wired as `sol serve` wires it (so the turns search the memories), the two stores' turns
//       interleaved in batches of 100; the goal is a loaded/empty ratio <= 1.2, printed, not enforced.
// Imports the BUILT packages (packages/*/dist): `npm run bench` builds first. Traffic stays on
// 127.0.0.1. Options: --turns N, --warmup N, --threads N, --duration S, --connections N, --json, --growth-traces N,
// --growth-memories N, --no-growth (skips (d)).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchGrowth, printGrowth, servedStoreDeps } from "./bench-growth.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const core = await import(join(repo, "packages/core/dist/index.js"));
const sol = await import(join(repo, "packages/server/dist/index.js"));

const args = process.argv.slice(2);
const argValue = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
/** An integer option of at least `min`; anything else ends the run with a usage error. */
const integerArg = (name, fallback, min) => {
  const value = Number(argValue(name, fallback));
  if (Number.isSafeInteger(value) && value >= min) return value;
  console.error(`bench: ${name} must be an integer of at least ${min}, not ${argValue(name, "")}`);
  process.exit(2);
};

// A typical conversation: planning, a reminder, small talk, a question; step 1 and step 2 routes.
const MESSAGES = [
  "I need to plan my week and book the dentist.",
  "remind me to call mom tomorrow at 9",
  "Can you help me compare two phone plans? One is 30 a month, the other 45 with more data.",
  "ok thanks",
  "What should I cook tonight with rice, eggs and spinach?",
  "I'm feeling a bit overwhelmed with work this week.",
  "Let's decide: the blue one.",
  "Write a short note to my landlord about the broken heater.",
];
// A tenant's threads: each turn ranks up to 50 other threads' arcs, so --threads 60 shows a tenant past that.
const THREADS = integerArg("--threads", 20, 1);

// Unrecorded turns before (a) and (d) measure: V8 keeps compiling a turn's code for the first few
// thousand turns, on threads that share the machine's cores with the turn itself.
const WARMUP = integerArg("--warmup", 200, 0);

// The ids `sol serve` makes: time-ordered, so a turn's rows append to its indexes as in production
// (random ids put each insert on another B-tree page, a cost the served store does not pay).
const ids = sol.randomIds;
const clock = { now: () => Date.now() };

/** Median and p99 of a list of numbers. */
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, median: at(0.5), p99: at(0.99) };
}

const ms2us = (ms) => ms * 1000;

// ---------------------------------------------------------------------------------------------
// (a) a whole turn in process, and the provider calls it made, alone
// ---------------------------------------------------------------------------------------------

/**
 * A TurnService over `dbUrl` that runs turns in batches, recording each turn's time and the provider
 * calls it made. `storeDeps(store)` adds TurnService options taken from the store: (a) and (d) wire them
 * as `sol serve` does (memory search, CRA checkpoints and their context injector, pinned contexts,
 * Driver Blocks).
 */
async function turnRunner(dbUrl, storeDeps = () => ({})) {
  const store = await sol.openStore(dbUrl);
  const offline = sol.createOfflineProvider({ clock });
  let calls = null;
  const provider = {
    name: offline.name,
    model: offline.model,
    complete(request) {
      calls?.push(request);
      return offline.complete(request);
    },
  };
  const service = sol.createTurnService({
    store,
    provider,
    engines: sol.createTurnEngines(),
    clock,
    ids,
    windowSize: 12,
    ...storeDeps(store),
  });
  const turnUs = [];
  const callsPerTurn = [];
  const warmCalls = [];
  let selectorTurns = 0;
  let next = 0;
  return {
    /** Runs `n` turns; a `warm` batch is not recorded (its provider calls only warm the baseline). */
    async batch(n, warm = false) {
      for (let k = 0; k < n; k++, next++) {
        const packet = {
          requestId: `bench-${next}`,
          threadId: `bench-thread-${next % THREADS}`,
          message: MESSAGES[next % MESSAGES.length],
        };
        calls = [];
        const t0 = performance.now();
        const bodyHash = sol.sha256Hex(sol.canonicalJson(packet));
        const outcome = await service.runTurn({ tenantId: "bench", bodyHash }, packet);
        const elapsed = performance.now() - t0;
        if (warm) {
          warmCalls.push(calls);
          continue;
        }
        turnUs.push(ms2us(elapsed));
        callsPerTurn.push(calls);
        if (outcome.response.modeDecision.step === 2) selectorTurns++;
      }
      calls = null;
    },
    /** Times the baseline (the recorded turns' provider calls alone), closes the store, and reports. */
    async finish() {
      // Baseline: the very requests those turns sent to the provider, replayed one turn's worth at a time.
      for (const group of warmCalls) for (const req of group) await offline.complete(req);
      const providerUs = [];
      for (const group of callsPerTurn) {
        const t0 = performance.now();
        for (const req of group) await offline.complete(req);
        providerUs.push(ms2us(performance.now() - t0));
      }
      const sample = {
        memento: (await store.mementos.get("bench", "bench-thread-0"))?.memento ?? null,
        window: await store.messages.listRecent("bench", "bench-thread-0", 12),
        mainReply: callsPerTurn.at(-1)?.at(-1),
      };
      await store.close();
      const modelCalls = callsPerTurn.reduce((n, g) => n + g.length, 0);
      const turns = turnUs.length;
      return { turn: stats(turnUs), provider: stats(providerUs), modelCalls, selectorTurns, turns, sample };
    },
  };
}

/** Runs `turns` turns (after `warmup` unrecorded ones) over `dbUrl`; returns per-turn times and provider calls. */
async function benchTurns(dbUrl, turns, warmup, storeDeps = () => ({})) {
  const runner = await turnRunner(dbUrl, storeDeps);
  await runner.batch(warmup, true);
  await runner.batch(turns);
  return runner.finish();
}

/**
 * benchTurns over several stores at once, their turns interleaved in batches of 100: a machine whose
 * speed drifts over the minutes a run takes then slows every store alike, where one store after the
 * other would put the drift into their ratio. (d) compares the empty and the loaded store this way.
 */
async function benchTurnsInterleaved(dbUrls, turns, warmup, storeDeps = () => ({})) {
  const BATCH = 100;
  const runners = [];
  for (const url of dbUrls) runners.push(await turnRunner(url, storeDeps));
  for (const runner of runners) await runner.batch(warmup, true);
  for (let done = 0; done < turns; done += BATCH) {
    for (const runner of runners) await runner.batch(Math.min(BATCH, turns - done));
  }
  const results = [];
  for (const runner of runners) results.push(await runner.finish());
  return results;
}

// ---------------------------------------------------------------------------------------------
// (b) the pure engines of one typical turn
// ---------------------------------------------------------------------------------------------

async function benchEngines(iterations, sample) {
  const engines = sol.createTurnEngines();
  const offline = sol.createOfflineProvider({ clock });
  const message = "Can you help me compare two phone plans? One is 30 a month, the other 45 with more data.";
  const thread = { lastModeLabel: "assist", messageCount: 8 };
  const window = sample.window.map((m) => ({ role: m.role, content: m.content }));
  const inline = [
    {
      id: "user-brief",
      version: 1,
      title: "Keep it short",
      promptConstraints: ["Answer in at most five sentences."],
    },
  ];
  // A real model reply to lint: the offline provider's answer to this turn's main prompt.
  const firstDecision = engines.router.route({ message, thread });
  const firstPolicy = engines.policy.resolve({
    modeLabel: firstDecision.modeLabel,
    driverBlockInline: inline,
  });
  if (!firstPolicy.ok) throw new Error(`policy: ${JSON.stringify(firstPolicy.issues)}`);
  const promptInput = (modeDecision, policy) => ({
    law: engines.law,
    modeDecision,
    policy,
    memento: sample.memento,
    injectedContext: [],
    window,
    windowSize: 12,
    userMessage: message,
    // What a turn passes (orchestrator/input-budget.ts): node's SHA-256, not core's portable one.
    sha256Hex: sol.sha256Hex,
  });
  const reply = await offline.complete({
    purpose: "main",
    messages: core.assemblePrompt(promptInput(firstDecision, firstPolicy.value)).messages,
    json: true,
    hints: { userMessage: message, modeLabel: firstDecision.modeLabel },
  });

  const parts = { route: [], policy: [], compile: [], assemble: [], lint: [], total: [] };
  // The compile a turn pays when its policy is not cached (a new block set): the engine without the memo.
  const uncached = sol.createTurnEngines().policy;
  const warmup = Math.min(1000, iterations);
  for (let i = 0; i < warmup + iterations; i++) {
    const t0 = performance.now();
    const decision = engines.router.route({ message, thread });
    const t1 = performance.now();
    const policy = engines.policy.resolve({ modeLabel: decision.modeLabel, driverBlockInline: inline });
    const t2 = performance.now();
    const prompt = core.assemblePrompt(promptInput(decision, policy.value));
    const t3 = performance.now();
    const parsed = core.parseModelOutput(reply.text);
    const lint = core.lintOutput({
      text: parsed.envelope.assistant_text,
      envelope: parsed.envelope,
      modeDecision: decision,
      policy: policy.value,
      formatViolation: parsed.formatViolation,
    });
    const t4 = performance.now();
    if (!lint || prompt.messages.length === 0) throw new Error("engine produced nothing");
    if (i < warmup) continue;
    parts.route.push(ms2us(t1 - t0));
    parts.policy.push(ms2us(t2 - t1));
    const c0 = performance.now();
    // A distinct block set each time, so the memoized engine compiles: a cache miss.
    uncached.resolve({
      modeLabel: decision.modeLabel,
      driverBlockInline: [{ ...inline[0], version: i + 2 }],
    });
    parts.compile.push(ms2us(performance.now() - c0));
    parts.assemble.push(ms2us(t3 - t2));
    parts.lint.push(ms2us(t4 - t3));
    parts.total.push(ms2us(t4 - t0));
  }
  return {
    iterations,
    step: firstDecision.step,
    modeLabel: firstDecision.modeLabel,
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, stats(v)])),
  };
}

// ---------------------------------------------------------------------------------------------
// (c) HTTP throughput: the real server vs a bare Fastify route, each in its own process
// ---------------------------------------------------------------------------------------------

/** Child mode: serve, print `{"url": ...}` on one line, run until killed. */
async function runChild(kind, arg) {
  if (kind === "sol") {
    // An empty web directory: the server runs without its web client (a missing one is refused).
    const noWeb = join(tmpdir(), "sol-bench-no-web");
    mkdirSync(noWeb, { recursive: true });
    const config = sol.loadConfig({
      env: {
        SOL_PORT: "0",
        SOL_HOST: "127.0.0.1",
        SOL_DB_URL: arg,
        SOL_RATE_LIMIT_PER_MIN: "0",
        SOL_WEB_DIR: noWeb,
      },
    });
    const server = await sol.createSolServer(config, { logger: false });
    const url = await server.listen();
    process.stdout.write(`${JSON.stringify({ url })}\n`);
    process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
    return;
  }
  const { default: Fastify } = await import("fastify");
  const body = JSON.parse(Buffer.from(arg, "base64").toString("utf8"));
  const app = Fastify({ logger: false });
  app.post("/v1/chat", async () => body);
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
}

function startChild(kind, arg) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--child", kind, arg], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolvePromise, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolvePromise({ url: JSON.parse(line).url, child });
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

function stopChild(child) {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise();
    child.once("exit", () => resolvePromise());
    child.kill("SIGTERM");
  });
}

async function cannon(autocannon, url, connections, duration, runId) {
  let nextThread = 0;
  let nextRequest = 0;
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: "POST",
        path: "/v1/chat",
        headers: { "content-type": "application/json" },
        // One thread per connection: its turns are sequential, like a user's, and every request is
        // a new requestId, so each one is a real turn rather than a replay.
        setupRequest: (req, context) => {
          context.threadId ??= `${runId}-thread-${nextThread++}`;
          const n = nextRequest++;
          return {
            ...req,
            body: JSON.stringify({
              requestId: `${runId}-${n}`,
              threadId: context.threadId,
              message: MESSAGES[n % MESSAGES.length],
            }),
          };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function benchHttp(connections, duration) {
  const { default: autocannon } = await import("autocannon");
  const dir = mkdtempSync(join(tmpdir(), "sol-bench-"));
  try {
    const solChild = await startChild("sol", `sqlite:${join(dir, "bench.db")}`);
    let sample;
    let solRun;
    try {
      const res = await fetch(new URL("/v1/chat", solChild.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requestId: "sample", threadId: "sample", message: MESSAGES[0] }),
      });
      if (res.status !== 200) throw new Error(`sample turn answered ${res.status}`);
      sample = await res.json();
      await cannon(autocannon, solChild.url, connections, 2, "warm");
      solRun = await cannon(autocannon, solChild.url, connections, duration, "run");
    } finally {
      await stopChild(solChild.child);
    }
    const bareChild = await startChild("bare", Buffer.from(JSON.stringify(sample)).toString("base64"));
    let bareRun;
    try {
      await cannon(autocannon, bareChild.url, connections, 2, "warm");
      bareRun = await cannon(autocannon, bareChild.url, connections, duration, "run");
    } finally {
      await stopChild(bareChild.child);
    }
    return {
      connections,
      duration,
      sol: solRun,
      bare: bareRun,
      responseBytes: JSON.stringify(sample).length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

function printReport(r) {
  const us = (x) => `${x.toFixed(1)} µs`.padStart(12);
  const row = (label, s) => `  ${label.padEnd(46)}${us(s.median)}${us(s.p99)}`;
  // autocannon reports whole milliseconds; a 0 ms baseline has no meaningful ratio.
  const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(2)}x` : "n/a (baseline < 1 ms)");
  console.log(`\nSolServer bench (node ${process.version})\n`);
  console.log(
    `(a) one turn in process, offline provider (${r.turns.memory.turns} turns after ${r.warmup} unrecorded, ${THREADS} threads)`,
  );
  console.log(`  ${"".padEnd(46)}${"median".padStart(12)}${"p99".padStart(12)}`);
  for (const [name, t] of [
    ["SQLite memory", r.turns.memory],
    ["SQLite file", r.turns.file],
  ]) {
    console.log(row(`turn via TurnService, ${name}`, t.turn));
    console.log(
      row(`  baseline: its ${(t.modelCalls / t.turns).toFixed(2)} provider calls alone`, t.provider),
    );
    console.log(
      `    control plane adds ${(t.turn.median - t.provider.median).toFixed(1)} µs per turn at the median (turn/baseline ${ratio(t.turn.median, t.provider.median)}); ${t.selectorTurns} turns used the selector`,
    );
  }
  const e = r.engines;
  console.log(`\n(b) engines of one typical turn (${e.iterations} iterations, routed at step ${e.step})`);
  console.log(row("route()", e.route));
  console.log(row("policy resolve (select + compile Driver Blocks)", e.policy));
  console.log(row("  the same, not cached (a new block set)", e.compile));
  console.log(row("assemblePrompt()", e.assemble));
  console.log(row("parseModelOutput() + lintOutput()", e.lint));
  console.log(row("all four", e.total));
  const h = r.http;
  console.log(
    `\n(c) HTTP POST /v1/chat, autocannon ${h.connections} connections x ${h.duration} s, 127.0.0.1 (response ${h.responseBytes} bytes)`,
  );
  console.log(`  ${"".padEnd(46)}${"req/s".padStart(12)}${"p50".padStart(12)}${"p99".padStart(12)}`);
  const hrow = (label, x) =>
    `  ${label.padEnd(46)}${x.rps.toFixed(0).padStart(12)}${`${x.p50} ms`.padStart(12)}${`${x.p99} ms`.padStart(12)}`;
  console.log(hrow("sol serve, SQLite file, every request a turn", h.sol));
  console.log(hrow("baseline: bare Fastify route, same JSON", h.bare));
  console.log(
    `  ratio sol/bare: throughput ${ratio(h.sol.rps, h.bare.rps)}, p50 ${ratio(h.sol.p50, h.bare.p50)}, p99 ${ratio(h.sol.p99, h.bare.p99)}`,
  );
  console.log(
    `  sol: ${h.sol.total} requests, ${h.sol.non2xx} non-2xx, ${h.sol.errors} errors; bare: ${h.bare.total} requests, ${h.bare.non2xx} non-2xx, ${h.bare.errors} errors`,
  );
  if (r.growth) printGrowth(r.growth, row);
}

async function main() {
  const turns = Number(argValue("--turns", 2000));
  const duration = Number(argValue("--duration", 8));
  const connections = Number(argValue("--connections", 10));
  const dir = mkdtempSync(join(tmpdir(), "sol-bench-turns-"));
  const report = { threads: THREADS, warmup: WARMUP };
  const progress = (what) => process.stderr.write(`bench: ${what}\n`);
  try {
    progress(`(a) ${WARMUP} + ${turns} turns on SQLite memory, then on a SQLite file`);
    report.turns = {
      memory: await benchTurns("sqlite::memory:", turns, WARMUP, servedStoreDeps(sol, core, clock, ids)),
      file: await benchTurns(
        `sqlite:${join(dir, "turns.db")}`,
        turns,
        WARMUP,
        servedStoreDeps(sol, core, clock, ids),
      ),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  progress("(b) engines of one turn");
  report.engines = await benchEngines(Number(argValue("--iterations", 5000)), report.turns.memory.sample);
  progress(
    `(c) HTTP, ${connections} connections, 2 s warm-up + ${duration} s each for sol and the bare route`,
  );
  report.http = await benchHttp(connections, duration);
  if (!args.includes("--no-growth")) {
    const growthDir = mkdtempSync(join(tmpdir(), "sol-bench-growth-"));
    try {
      report.growth = await benchGrowth({
        sol,
        repo,
        dir: growthDir,
        benchTurnsInterleaved,
        turns,
        warmup: WARMUP,
        traces: Number(argValue("--growth-traces", 1_000_000)),
        memories: Number(argValue("--growth-memories", 100_000)),
        messages: MESSAGES,
        ids,
        clock,
        progress,
      });
    } finally {
      rmSync(growthDir, { recursive: true, force: true });
    }
  }
  for (const t of Object.values(report.turns)) delete t.sample;
  if (args.includes("--json")) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  if (report.http.sol.non2xx > 0 || report.http.sol.errors > 0) {
    console.error("some benchmark requests failed");
    process.exitCode = 1;
  }
}

if (args[0] === "--child") await runChild(args[1], args[2]);
else await main();
