#!/usr/bin/env node
// Memory-retrieval benchmark (issue 21, "Measure"), run by `npm run bench:memory`:
//  (a) recall@1/5/10 of the evidence turns on the LoCoMo development split THROUGH THE PUBLIC API: a
//      server on a SQLite file (and, unless --no-pg, one on PostgreSQL), every dialogue turn POSTed to
//      /v1/memories ("Speaker: text", one threadId per session, one API key per conversation), each
//      question of categories 1-4 asked with GET /v1/memories?q=&limit=10; plain BM25 over the same
//      texts beside it, in the same run;
//  (b) search latency at 10k (and, with --100k, 100k) memories in one tenant, through the store
//      (MemoryStore.search), on SQLite and PostgreSQL;
//  (c) the breakpoint signal detectors' table (scripts/bench-signals.mjs).
// Imports the BUILT packages.
//   node scripts/bench-memory-retrieval.mjs [--no-pg] [--100k] [--skip-latency] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runSignalBench } from "./bench-signals.mjs";
import { createBm25 } from "./bm25-baseline.mjs";
import { findLocomo, readLocomo } from "./locomo.mjs";
import { measureLatency, pgSchemaUrl } from "./memory-latency.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const server = await import(join(repo, "packages/server/dist/index.js"));

const args = process.argv.slice(2);
const withPg = !args.includes("--no-pg");
const KS = [1, 5, 10];
const PG_URL = process.env.SOL_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const conversations = readLocomo(findLocomo(repo));
const speakerText = (t) => `${t.speaker}: ${t.text}`;

function recallOf(conv, rankedDiaIds) {
  const sums = Object.fromEntries(KS.map((k) => [k, 0]));
  conv.questions.forEach((q, i) => {
    const ids = rankedDiaIds[i];
    for (const k of KS) {
      const top = new Set(ids.slice(0, k));
      sums[k] += q.evidence.filter((e) => top.has(e)).length / q.evidence.length;
    }
  });
  return { n: conv.questions.length, sums };
}

function summarize(perConv) {
  const row = {};
  let n = 0;
  const total = Object.fromEntries(KS.map((k) => [k, 0]));
  for (const [id, r] of perConv) {
    row[id] = Object.fromEntries(KS.map((k) => [k, r.sums[k] / r.n]));
    n += r.n;
    for (const k of KS) total[k] += r.sums[k];
  }
  row.all = Object.fromEntries(KS.map((k) => [k, total[k] / n]));
  return row;
}

function runBm25(textOf) {
  return summarize(
    conversations.map((conv) => {
      const bm25 = createBm25(conv.turns.map((t) => ({ id: t.dia_id, text: textOf(t) })));
      return [
        conv.id,
        recallOf(
          conv,
          conv.questions.map((q) => bm25.search(q.question, 10)),
        ),
      ];
    }),
  );
}

async function request(base, key, method, path, body) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// One API key (tenant) per conversation, so a question only ever ranks its own conversation's turns.
async function runThroughApi(dbUrl) {
  const keys = conversations.map((c) => `bench-key-${c.id}`);
  const config = server.loadConfig({
    env: {
      SOL_PORT: "0",
      SOL_HOST: "127.0.0.1",
      SOL_DB_URL: dbUrl,
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_API_KEYS: conversations.map((c, i) => `locomo-${c.id}:${keys[i]}`).join(","),
    },
  });
  const sol = await server.createSolServer(config);
  const base = await sol.listen();
  try {
    const perConv = [];
    let posted = 0;
    const t0 = performance.now();
    for (const [i, conv] of conversations.entries()) {
      const diaOf = new Map();
      for (const t of conv.turns) {
        const { memory } = await request(base, keys[i], "POST", "/v1/memories", {
          requestId: `locomo-${conv.id}-${t.dia_id}`,
          text: speakerText(t),
          threadId: `locomo-${conv.id}-session-${t.session}`,
          source: "import",
        });
        diaOf.set(memory.memoryId, t.dia_id);
        posted += 1;
      }
      const ranked = [];
      for (const q of conv.questions) {
        const query = new URLSearchParams({ q: q.question, limit: "10" });
        const { memories } = await request(base, keys[i], "GET", `/v1/memories?${query}`);
        ranked.push(memories.map((m) => diaOf.get(m.memoryId)));
      }
      perConv.push([conv.id, recallOf(conv, ranked)]);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { row: summarize(perConv), posted, seconds };
  } finally {
    await sol.close();
  }
}

const pct = (x) => x.toFixed(3);
function printRow(label, row) {
  const cells = [...conversations.map((c) => row[c.id]), row.all].map((r) =>
    KS.map((k) => pct(r[k])).join(" "),
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}

const results = { recall: [], latency: [], signals: null };
const dir = mkdtempSync(join(tmpdir(), "sol-bench-memory-"));
try {
  console.log(
    `## Retrieval quality: recall@1 @5 @10 of evidence turns, LoCoMo dev (questions without evidence skipped: ${conversations.map((c) => c.skipped).join("/")})\n`,
  );
  console.log(
    `| ranker | ${[...conversations.map((c) => `conv ${c.id} (n=${c.questions.length})`), "all"].join(" | ")} |`,
  );
  console.log(`|---|${conversations.map(() => "---|").join("")}---|`);
  const add = (label, row) => {
    results.recall.push({ label, row });
    printRow(label, row);
  };
  const api = await runThroughApi(`sqlite:${join(dir, "locomo.db")}`);
  add("SolServer GET /v1/memories?q= (SQLite memory index, through HTTP)", api.row);
  if (withPg) {
    const schema = await pgSchemaUrl(PG_URL, "locomo");
    try {
      add("SolServer GET /v1/memories?q= (PostgreSQL, through HTTP)", (await runThroughApi(schema.url)).row);
    } finally {
      await schema.drop();
    }
  }
  add(
    "plain BM25 k1 1.2 b 0.75, turn text",
    runBm25((t) => t.text),
  );
  add("plain BM25, `Speaker: text` (same texts as the API)", runBm25(speakerText));
  console.log(
    `\n(${api.posted} memories POSTed and ${conversations.reduce((a, c) => a + c.questions.length, 0)} questions asked in ${api.seconds.toFixed(1)} s)`,
  );

  if (!args.includes("--skip-latency")) {
    results.latency = await measureLatency({
      openStore: server.openStore,
      pgUrl: withPg ? PG_URL : undefined,
      sizes: args.includes("--100k") ? [10_000, 100_000] : [10_000],
      sqliteUrl: (n) => `sqlite:${join(dir, `latency-${n}.db`)}`,
      vocabularyFrom: conversations.flatMap((c) => c.turns.map((t) => t.text)),
      questions: conversations.flatMap((c) => c.questions.map((q) => q.question)),
    });
  }

  const signals = await runSignalBench();
  results.signals = { results: signals.results, microsPerTurn: signals.microsPerTurn };
  console.log("\n## Breakpoint signal detectors\n");
  console.log(signals.table);
  console.log(`\ndetectSignals: ${signals.microsPerTurn.toFixed(1)} µs per turn (mean)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (args.includes("--json")) console.log(JSON.stringify(results, null, 2));
