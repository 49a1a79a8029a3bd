// Search latency of MemoryStore.search (SQLite and PostgreSQL, each over its memory index) on synthetic memories: texts drawn deterministically (seeded
// PRNG, Zipf-like word frequencies) from a word list, all in one tenant; queries drawn the same way.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { bm25Tokens } from "./bm25-baseline.mjs";

const TENANT = "latency-tenant";
const QUERIES = 400;
const WARMUP = 40;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The word list: distinct words of the given texts, most frequent first (ties alphabetical).
export function wordList(texts) {
  const counts = new Map();
  for (const text of texts) for (const w of bm25Tokens(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

// Rank r is drawn with weight 1/(r+1): common words are common, as in real text.
function zipfSampler(words, random) {
  const cumulative = [];
  let total = 0;
  for (let r = 0; r < words.length; r++) {
    total += 1 / (r + 1);
    cumulative.push(total);
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

function sentence(draw, random, min, max) {
  const n = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: n }, draw).join(" ");
}

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

// Wall time per search, and this process's CPU time per search (for SQLite, which runs in-process,
// the CPU time is less sensitive to other load on a shared machine).
async function timeSearches(queries, run) {
  for (const q of queries.slice(0, WARMUP)) await run(q);
  const samples = [];
  const cpu = [];
  for (const q of queries.slice(WARMUP)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run(q);
    samples.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ...percentiles(samples), cpuP50: percentiles(cpu).p50 };
}

async function timeQuerySets(querySets, loadMs, run) {
  const stats = [];
  for (const [label, queries] of querySets)
    stats.push({ queries: label, loadMs, ...(await timeSearches(queries, run)) });
  return stats;
}

// Consecutive memories of one synthetic thread (20 saves each): a memory's context is the text of
// the one before it in its thread, as MemoryStore.save would index it. Also seeds `npm run bench` (d).
export function syntheticMemories(n, words) {
  const random = mulberry32(20260521);
  const draw = zipfSampler(words, random);
  const base = Date.parse("2026-01-01T00:00:00Z");
  const out = [];
  for (let i = 0; i < n; i++) {
    const text = sentence(draw, random, 8, 30);
    const first = i % 20 === 0;
    out.push({
      memoryId: `m${String(i).padStart(7, "0")}`,
      threadId: `t${Math.floor(i / 20)}`,
      text,
      context: first ? "" : out[i - 1].text,
      createdAt: new Date(base + i * 60_000).toISOString(),
    });
  }
  return out;
}

function syntheticQueries(words) {
  const random = mulberry32(7);
  const draw = zipfSampler(words, random);
  return Array.from({ length: QUERIES + WARMUP }, () => sentence(draw, random, 5, 12));
}

// Loads in batches of 1000 rows through one insert (the same memories table, written around the
// store as a bulk load would), then times MemoryStore.search.
async function storeLatency(openStore, url, memories, querySets) {
  const store = await openStore(url);
  try {
    const t0 = performance.now();
    for (let i = 0; i < memories.length; i += 1000) {
      const rows = memories.slice(i, i + 1000).map((m) => ({
        tenant_id: TENANT,
        memory_id: m.memoryId,
        request_id: m.memoryId,
        body_hash: "bench",
        text: m.text,
        summary: m.text.slice(0, 200),
        domain_flags: "[]",
        thread_id: m.threadId,
        source: "import",
        context: m.context,
        created_at: m.createdAt,
        updated_at: m.createdAt,
      }));
      await store.db.insertInto("memories").values(rows).execute();
    }
    if (store.kind === "postgres") await sql`analyze memories`.execute(store.db);
    // The memory index takes in rows written around the store before its next search: that first
    // search is part of the load.
    await store.memories.search(TENANT, { query: querySets[0][1][0], limit: 10 });
    const loadMs = performance.now() - t0;
    // What autovacuum does after a load like this one (this machine's PostgreSQL runs without it):
    // without statistics the planner can scan a whole table for a key lookup.
    if (store.kind === "postgres")
      await sql`analyze memories, memory_terms, memory_postings, memory_index_state`.execute(store.db);
    return await timeQuerySets(querySets, loadMs, (query) =>
      store.memories.search(TENANT, { query, limit: 10, now: new Date().toISOString() }),
    );
  } finally {
    await store.close();
  }
}

/** A fresh schema on `pgUrl` for one run (`n` names it), and how to drop it. */
export async function pgSchemaUrl(pgUrl, n) {
  const { default: pg } = await import("pg");
  const schema = `bench_memlat_${process.pid}_${n}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade; create schema "${schema}"`);
  await client.end();
  const url = new URL(pgUrl);
  url.searchParams.set("schema", schema);
  const drop = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  };
  return { url: url.toString(), drop };
}

/**
 * Prints and returns p50/p99 of one search (limit 10) per engine, size and query set: Zipf-drawn
 * word salads (common words, many matches: the hard case) and real questions (`questions`).
 */
export async function measureLatency({ openStore, pgUrl, sizes, sqliteUrl, vocabularyFrom, questions }) {
  const words = wordList(vocabularyFrom);
  const querySets = [
    ["zipf words", syntheticQueries(words)],
    ["questions", questions.slice(0, QUERIES + WARMUP)],
  ];
  const rows = [];
  console.log(
    `\n## Retrieval latency: MemoryStore.search, one tenant, limit 10, up to ${QUERIES} queries after ${WARMUP} warm-up (ms)\n`,
  );
  console.log(
    "| engine | memories | queries | p50 | p99 | mean | cpu p50 | load (s) |\n|---|---|---|---|---|---|---|---|",
  );
  for (const n of sizes) {
    const memories = syntheticMemories(n, words);
    // Fewer timed queries at 100k, where one search can take far longer.
    const count = n >= 100_000 ? QUERIES / 4 : QUERIES;
    const sets = querySets.map(([label, queries]) => [label, queries.slice(0, count + WARMUP)]);
    const engines = [["sqlite", () => storeLatency(openStore, sqliteUrl(n), memories, sets)]];
    if (pgUrl)
      engines.push([
        "postgres",
        async () => {
          const schema = await pgSchemaUrl(pgUrl, n);
          try {
            return await storeLatency(openStore, schema.url, memories, sets);
          } finally {
            await schema.drop();
          }
        },
      ]);
    for (const [engine, run] of engines) {
      for (const r of await run()) {
        rows.push({ engine, memories: n, ...r });
        const f = (x) => x.toFixed(2);
        const cpu = engine === "sqlite" ? f(r.cpuP50) : "-";
        console.log(
          `| ${engine} | ${n} | ${r.queries} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.mean)} | ${cpu} | ${(r.loadMs / 1000).toFixed(1)} |`,
        );
      }
    }
  }
  return rows;
}
