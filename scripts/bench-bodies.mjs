// npm run bench:bodies — what a burst of large nested JSON bodies costs everyone else (issue 24).
// One server (SQLite in memory, a scripted upstream that answers at once) on a real socket. A small
// probe (GET /healthz, and a small POST /v1/chat) is timed idle, then again while BURST clients each
// send ~1 MiB nested bodies (within SOL_BODY_LIMIT) to POST /v1/chat back to back. Reported: the
// probes' p50/p95/max idle and under the burst, and the added latency (burst minus idle), plus the
// server-side cost of one large body (ms per MiB, from the burst's own answers).
// Env: BENCH_BODIES_BURST (concurrent senders, default 8), BENCH_BODIES_ROUNDS (bodies per sender /8 cap, 4),
// BENCH_BODIES_PROBES (probes per phase, 20), BENCH_BODIES_SHAPE (deep|wide, default deep).

import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startScriptedUpstream } from "../packages/harness/dist/index.js";
import { createOpenAiProvider, createSolServer, loadConfig } from "../packages/server/dist/index.js";

const BURST = Number(process.env.BENCH_BODIES_BURST ?? 8);
const ROUNDS = Number(process.env.BENCH_BODIES_ROUNDS ?? 4);
const PROBES = Number(process.env.BENCH_BODIES_PROBES ?? 20);
const SHAPE = process.env.BENCH_BODIES_SHAPE ?? "deep";
const LIMIT = 1_048_576;

/**
 * A `meta` value of about `bytes` of JSON. "deep": a chain 120 levels deep (under the 128 limit)
 * whose every level holds small leaves, so most nodes sit deep. "wide": a tree of arrays 8 wide.
 */
function nested(bytes) {
  if (SHAPE === "wide") {
    const leaf = () => Array.from({ length: 8 }, (_, i) => ({ k: i, v: "x" }));
    let node = leaf();
    while (JSON.stringify(node).length * 8 < bytes) node = Array.from({ length: 8 }, () => node);
    return node;
  }
  const depth = 120;
  const perLevel = Math.floor(bytes / depth / 12);
  let node = { end: true };
  for (let d = 0; d < depth; d++) {
    const level = { next: node };
    for (let i = 0; i < perLevel; i++) level[`k${i}`] = i;
    node = level;
  }
  return node;
}

// The server runs in a child process, so the senders' own work (building and sending the bodies)
// does not share its event loop and skew what is measured.
if (process.argv[2] === "--server") {
  await serve();
} else {
  await measure();
}

async function serve() {
  const upstream = await startScriptedUpstream({
    record: false,
    fallback: (req) => {
      const messages = req.body?.messages ?? [];
      if (messages.some((m) => m.role === "system" && String(m.content).includes("mode selector"))) {
        return { kind: "json", body: { modeLabel: "assist", confidence: 0.9, reasons: ["bench"] } };
      }
      return { kind: "json", body: { assistant_text: "ok", meta: { signals: [] } } };
    },
  });
  const provider = createOpenAiProvider({ baseUrl: upstream.url, model: "bench", timeoutMs: 10_000 });
  const config = loadConfig({
    env: {
      SOL_PORT: "0",
      SOL_HOST: "127.0.0.1",
      SOL_DB_URL: "sqlite::memory:",
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_MAX_CONCURRENT_PER_KEY: "0",
      SOL_BODY_LIMIT: String(LIMIT),
    },
  });
  const server = await createSolServer(config, { provider });
  const base = await server.listen();
  process.stdout.write(`${base}\n`);
  process.on("SIGTERM", async () => {
    await server.close();
    await upstream.close();
    process.exit(0);
  });
}

async function measure() {
  // BENCH_BODIES_NODE_ARGS: extra node flags for the server child (e.g. "--cpu-prof --cpu-prof-dir=prof").
  const nodeArgs = (process.env.BENCH_BODIES_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(import.meta.url), "--server"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = await once(createInterface({ input: child.stdout }), "line");
  const base = line.trim();
  let n = 0;
  const chatBody = (meta) =>
    JSON.stringify({
      requestId: `r${n++}`,
      threadId: `t${n % 4}`,
      message: "hello",
      ...(meta ? { meta } : {}),
    });

  // Leave room for the envelope fields under the limit.
  const bigMeta = nested(LIMIT - 4096);
  const bigTail = JSON.stringify({ threadId: "big", message: "hello", meta: { blob: bigMeta } }).slice(1);
  const bigBody = () => `{"requestId":"big${n++}",${bigTail}`;
  const bigSize = Buffer.byteLength(bigBody());

  async function post(body) {
    const res = await fetch(`${base}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  }

  async function timed(fn) {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  }

  const probes = {
    "GET /healthz": () => fetch(`${base}/healthz`).then((r) => r.arrayBuffer()),
    "POST /v1/chat (small)": () => post(chatBody()),
  };

  async function probe(name, count) {
    const samples = [];
    for (let i = 0; i < count; i++) {
      samples.push(await timed(probes[name]));
      await new Promise((r) => setTimeout(r, 5));
    }
    return samples;
  }

  const pct = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  };
  const fmt = (x) => x.toFixed(1).padStart(8);

  // Warm up every path once.
  for (const fn of Object.values(probes)) await fn();
  const warm = await post(bigBody());

  const rows = [];
  for (const name of Object.keys(probes)) {
    const idle = await probe(name, PROBES);
    const statuses = new Map();
    let big = 0;
    let bigMs = 0;
    let running = true;
    const senders = Array.from({ length: BURST }, async () => {
      // Keeps sending while the probes run (bounded: at most ROUNDS * 8 bodies per sender).
      for (let r = 0; running && r < ROUNDS * 8; r++) {
        const body = bigBody();
        const t0 = performance.now();
        const status = await post(body);
        bigMs += performance.now() - t0;
        big += 1;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });
    // Let the burst start before probing.
    await new Promise((r) => setTimeout(r, 20));
    const loaded = await probe(name, PROBES);
    running = false;
    await Promise.all(senders);
    rows.push({ name, idle, loaded, big, bigMs, statuses });
  }

  console.log(
    `bench:bodies  shape=${SHAPE}  body=${(bigSize / 1024).toFixed(0)} KiB  burst=${BURST} senders  warm-up status ${warm}`,
  );
  console.log(
    "probe                     idle p50  idle p95  burst p50 burst p95 burst max  added p50 added p95",
  );
  for (const { name, idle, loaded } of rows) {
    console.log(
      `${name.padEnd(24)}${fmt(pct(idle, 50))}  ${fmt(pct(idle, 95))}  ${fmt(pct(loaded, 50))}  ${fmt(pct(loaded, 95))}  ${fmt(Math.max(...loaded))}  ${fmt(pct(loaded, 50) - pct(idle, 50))}  ${fmt(pct(loaded, 95) - pct(idle, 95))}`,
    );
  }
  for (const { name, big, bigMs, statuses } of rows) {
    const status = [...statuses].map(([s, c]) => `${s}×${c}`).join(" ");
    console.log(
      `burst during ${name}: ${big} large bodies, mean ${(bigMs / big).toFixed(0)} ms each under contention; statuses ${status}`,
    );
  }

  child.kill("SIGTERM");
  await once(child, "exit");
}
