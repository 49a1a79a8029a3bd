// Search latency of the memory indexes on synthetic memories: texts drawn deterministically (seeded
// PRNG, Zipf-like word frequencies) from a word list, all in one tenant; queries drawn the same way.
import { performance } from "node:perf_hooks";
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
function wordList(texts) {
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

function syntheticMemories(n, words) {
  const random = mulberry32(20260521);
  const draw = zipfSampler(words, random);
  return Array.from({ length: n }, (_, i) => ({
    memoryId: `m${String(i).padStart(7, "0")}`,
    tenantId: TENANT,
    text: sentence(draw, random, 8, 30),
    context: sentence(draw, random, 8, 30),
  }));
}

function syntheticQueries(words) {
  const random = mulberry32(7);
  const draw = zipfSampler(words, random);
  return Array.from({ length: QUERIES + WARMUP }, () => sentence(draw, random, 5, 12));
}

async function sqliteLatency({ search, Database }, path, memories, querySets) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  try {
    const index = search.createSqliteMemoryIndex(db);
    const t0 = performance.now();
    db.transaction(() => {
      for (const m of memories) index.add(m);
    })();
    const loadMs = performance.now() - t0;
    return await timeQuerySets(querySets, loadMs, (query) =>
      index.search({ tenantId: TENANT, query, limit: 10 }),
    );
  } finally {
    db.close();
  }
}

// Loads in batches of 1000 rows through one insert ... unnest (same table and generated tsvector as
// add(), only fewer round trips), then times index.search.
async function pgLatency({ search, pg }, url, memories, querySets) {
  const schema = `bench_memlat_${process.pid}_${memories.length}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await pool.query(`drop schema if exists "${schema}" cascade; create schema "${schema}"`);
  try {
    const index = await search.createPostgresMemoryIndex(pool, { schema });
    const t0 = performance.now();
    for (let i = 0; i < memories.length; i += 1000) {
      const batch = memories.slice(i, i + 1000);
      await pool.query(
        `insert into "${schema}".memory_search_docs (memory_id, tenant_id, body, context)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
        [
          batch.map((m) => m.memoryId),
          batch.map((m) => m.tenantId),
          batch.map((m) => m.text),
          batch.map((m) => m.context),
        ],
      );
    }
    await pool.query(`analyze "${schema}".memory_search_docs`);
    const loadMs = performance.now() - t0;
    return await timeQuerySets(querySets, loadMs, (query) =>
      index.search({ tenantId: TENANT, query, limit: 10 }),
    );
  } finally {
    await pool.query(`drop schema if exists "${schema}" cascade`);
    await pool.end();
  }
}

/**
 * Prints and returns p50/p99 of one search (limit 10) per engine, size and query set: Zipf-drawn
 * word salads (common words, many matches: the hard case) and real questions (`questions`).
 */
export async function measureLatency({
  search,
  Database,
  pg,
  pgUrl,
  sizes,
  sqlitePath,
  vocabularyFrom,
  questions,
}) {
  const words = wordList(vocabularyFrom);
  const querySets = [
    ["zipf words", syntheticQueries(words)],
    ["questions", questions.slice(0, QUERIES + WARMUP)],
  ];
  const rows = [];
  console.log(
    `\nSearch latency, one tenant, limit 10, up to ${QUERIES} queries after ${WARMUP} warm-up (ms)`,
  );
  console.log(
    "| engine | memories | queries | p50 | p99 | mean | cpu p50 | load (s) |\n|---|---|---|---|---|---|---|---|",
  );
  for (const n of sizes) {
    const memories = syntheticMemories(n, words);
    // Fewer timed queries at 100k, where one search can take far longer.
    const count = n >= 100_000 ? QUERIES / 4 : QUERIES;
    const sets = querySets.map(([label, queries]) => [label, queries.slice(0, count + WARMUP)]);
    const engines = [["sqlite", () => sqliteLatency({ search, Database }, sqlitePath(n), memories, sets)]];
    if (pgUrl) engines.push(["postgres", () => pgLatency({ search, pg }, pgUrl, memories, sets)]);
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
