#!/usr/bin/env node
// Memory-retrieval benchmark (issue 21, "Measure"): recall@1/5/10 of the evidence turns on the
// LoCoMo development split for the lexical ranker on SQLite FTS5 and PostgreSQL, beside plain BM25,
// with an ablation of the ranker's techniques; then search latency on synthetic memories.
// Imports the BUILT core and server (run `npm run bench:memory`).
//   node scripts/bench-memory-retrieval.mjs [--no-pg] [--100k] [--skip-latency] [--json]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createBm25 } from "./bm25-baseline.mjs";
import { findLocomo, readLocomo } from "./locomo.mjs";
import { measureLatency } from "./memory-latency.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const search = await import(join(repo, "packages/server/dist/memory-search/index.js"));
const { default: Database } = await import("better-sqlite3");
const { default: pg } = await import("pg");

const args = process.argv.slice(2);
const withPg = !args.includes("--no-pg");
const KS = [1, 5, 10];
const PG_URL = process.env.SOL_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const conversations = readLocomo(findLocomo(repo));

// How a dialogue turn becomes a memory. `speaker` writes "Name: text" (who said it is part of what a
// memory of a conversation records); `context` indexes the previous turn beside it at a lower weight.
function memoriesOf(conv, shape) {
  const textOf = (t) => {
    const said = shape.speaker ? `${t.speaker}: ${t.text}` : t.text;
    return shape.captions && t.blip_caption ? `${said} [photo: ${t.blip_caption}]` : said;
  };
  const previous = (i) => (i > 0 ? textOf(conv.turns[i - 1]) : "");
  return conv.turns.map((t, i) => ({
    memoryId: `${conv.id}/${t.dia_id}`,
    tenantId: `locomo-${conv.id}`,
    // `inline` puts the previous turn into the text itself: all a Memory of api.md can carry today.
    text: shape.inline && i > 0 ? `${previous(i)}\n${textOf(t)}` : textOf(t),
    context: shape.context ? previous(i) : "",
  }));
}

function recallOf(conv, rankedIdsOf) {
  const sums = Object.fromEntries(KS.map((k) => [k, 0]));
  for (const q of conv.questions) {
    const ids = rankedIdsOf(q.question).map((id) => id.slice(id.indexOf("/") + 1));
    for (const k of KS) {
      const top = new Set(ids.slice(0, k));
      sums[k] += q.evidence.filter((e) => top.has(e)).length / q.evidence.length;
    }
  }
  return { n: conv.questions.length, sums };
}

async function recallAsync(conv, rankedIdsOf) {
  const ranked = [];
  for (const q of conv.questions) ranked.push(await rankedIdsOf(q.question));
  let i = 0;
  return recallOf(conv, () => ranked[i++]);
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

function runBm25(shape) {
  return summarize(
    conversations.map((conv) => {
      const docs = memoriesOf(conv, shape).map((m) => ({ id: m.memoryId, text: m.text }));
      const bm25 = createBm25(docs);
      return [conv.id, recallOf(conv, (q) => bm25.search(q, 10))];
    }),
  );
}

function runSqlite(shape, indexOptions) {
  return summarize(
    conversations.map((conv) => {
      const db = new Database(":memory:");
      const index = search.createSqliteMemoryIndex(db, indexOptions);
      db.transaction(() => {
        for (const m of memoriesOf(conv, shape)) index.add(m);
      })();
      const tenantId = `locomo-${conv.id}`;
      const r = recallOf(conv, (query) =>
        index.search({ tenantId, query, limit: 10 }).map((h) => h.memoryId),
      );
      db.close();
      return [conv.id, r];
    }),
  );
}

async function runPostgres(shape, indexOptions) {
  const schema = `bench_memsearch_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  await pool.query(`create schema "${schema}"`);
  try {
    const index = await search.createPostgresMemoryIndex(pool, { ...indexOptions, schema });
    const perConv = [];
    for (const conv of conversations) {
      for (const m of memoriesOf(conv, shape)) await index.add(m);
      const tenantId = `locomo-${conv.id}`;
      const r = await recallAsync(conv, async (query) =>
        (await index.search({ tenantId, query, limit: 10 })).map((h) => h.memoryId),
      );
      perConv.push([conv.id, r]);
    }
    return summarize(perConv);
  } finally {
    await pool.query(`drop schema if exists "${schema}" cascade`);
    await pool.end();
  }
}

const SHIPPED = { speaker: true, context: true };
const NO_STEM = "unicode61 remove_diacritics 2";
// Each row adds one technique to the row above it, then variations of the shipped ranker.
const SQLITE_ABLATION = [
  ["FTS5 bm25, no stemming, all words", {}, { tokenizer: NO_STEM, removeStopWords: false, contextWeight: 0 }],
  ["+ porter stemming", {}, { removeStopWords: false }],
  ["+ stop/question words dropped", {}, {}],
  ["+ speaker name in the memory text", { speaker: true }, {}],
  ["+ previous turn as context (w 0.4) = shipped", SHIPPED, {}],
  ["shipped, context weight 0.2", SHIPPED, { contextWeight: 0.2 }],
  ["shipped, context weight 0.7", SHIPPED, { contextWeight: 0.7 }],
  ["previous turn inlined into the text instead (no context column)", { speaker: true, inline: true }, {}],
  ["shipped + bigram phrases", SHIPPED, { bigrams: true }],
  ["shipped + image captions in text", { ...SHIPPED, captions: true }, {}],
];
const PG_VARIANTS = [
  ["ts_rank (shipped)", SHIPPED, {}],
  ["ts_rank_cd", SHIPPED, { rankFunction: "ts_rank_cd" }],
  ["ts_rank, normalization 1 (log length)", SHIPPED, { rankFunction: "ts_rank", normalization: 1 }],
  ["ts_rank, no context", { speaker: true }, {}],
];

const pct = (x) => x.toFixed(3);
function printRow(label, row) {
  const cells = [...conversations.map((c) => row[c.id]), row.all].map((r) =>
    KS.map((k) => pct(r[k])).join(" "),
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}

const results = { recall: [], latency: [] };
const header = `| ranker | ${[...conversations.map((c) => `conv ${c.id} (n=${c.questions.length})`), "all"].join(" | ")} |`;
console.log(
  `Recall@1 @5 @10 of evidence turns (questions without evidence skipped: ${conversations.map((c) => c.skipped).join("/")})`,
);
console.log(header);
console.log(`|---|${conversations.map(() => "---|").join("")}---|`);
const add = (engine, label, row) => {
  results.recall.push({ engine, label, row });
  printRow(`${engine}: ${label}`, row);
};
add("plain", "BM25 k1 1.2 b 0.75 (script), turn text", runBm25({}));
add("plain", "BM25, speaker name in the text", runBm25({ speaker: true }));
for (const [label, shape, opts] of SQLITE_ABLATION) add("sqlite", label, runSqlite(shape, opts));
if (withPg)
  for (const [label, shape, opts] of PG_VARIANTS) add("postgres", label, await runPostgres(shape, opts));

if (!args.includes("--skip-latency")) {
  const dir = mkdtempSync(join(tmpdir(), "sol-memsearch-"));
  try {
    results.latency = await measureLatency({
      search,
      Database,
      pg,
      pgUrl: withPg ? PG_URL : undefined,
      sizes: args.includes("--100k") ? [10_000, 100_000] : [10_000],
      sqlitePath: (n) => join(dir, `latency-${n}.db`),
      vocabularyFrom: conversations.flatMap((c) => c.turns.map((t) => t.text)),
      questions: conversations.flatMap((c) => c.questions.map((q) => q.question)),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (args.includes("--json")) console.log(JSON.stringify(results, null, 2));
