// `npm run bench` (d), cost growth: seeds a SQLite file with a tenant's history (trace events spread over
// trace runs with their anchors, and memories) straight through better-sqlite3, checks the store sees
// it, and times whole turns of that tenant on it against the same turns on an empty file, the two
// interleaved in batches so that a machine's drift during the run does not land in their ratio.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { findLocomo, readLocomo } from "./locomo.mjs";
import { syntheticMemories, wordList } from "./memory-latency.mjs";

/** The tenant the bench's turns run under: the history is seeded into it. */
const TENANT = "bench";
/** The goal of issue 25: a loaded store costs a turn at most this much more than an empty one. */
export const GROWTH_GOAL = 1.2;
/** Historical threads the seeded trace runs belong to (none is one of the timed turns' threads). */
const HISTORY_THREADS = 5000;
const DAY_MS = 86_400_000;

/**
 * What `sol serve` gives its TurnService from the store (server.ts), so bench turns run the served
 * pipeline: memory search, CRA checkpoints (the built-in atlas) with their context injector, pinned
 * contexts and Driver Blocks. `sol` is the built server package; `clock` and `ids` the bench's.
 */
export function servedStoreDeps(sol, core, clock, ids) {
  return (store) => {
    const checkpoints = sol.createCheckpointService({
      engine: core.createCheckpointEngine({ atlas: sol.loadAtlas(undefined), clock, ids }),
      sessions: store.checkpointSessions,
      clock,
      ids,
    });
    return {
      memories: store.memories,
      checkpoints: store.checkpoints,
      pinnedContexts: store.pinnedContexts,
      driverBlocks: store.driverBlocks,
      contextInjector: sol.createCheckpointContextInjector(checkpoints),
    };
  };
}

/**
 * The memories' vocabulary: real chat (the LoCoMo turns, as bench:memory uses) when present, else the
 * repository's own docs; plus the bench's messages, so every turn's words exist in the index.
 */
function vocabulary(repo, messages) {
  try {
    const texts = readLocomo(findLocomo(repo)).flatMap((c) => c.turns.map((t) => t.text));
    return { source: "LoCoMo dev turns", words: wordList([...texts, ...messages]) };
  } catch {
    const docs = join(repo, "docs");
    const files = existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith(".md")) : [];
    const texts = [join(repo, "README.md"), ...files.map((f) => join(docs, f))].map((f) =>
      readFileSync(f, "utf8"),
    );
    return { source: "README.md and docs/*.md", words: wordList([...texts, ...messages]) };
  }
}

/**
 * Real trace runs to copy: a few turns of the bench's messages through a TurnService on an in-memory
 * store holding a few memories (so retrieval events name some), read back through the TraceStore.
 */
async function traceTemplates(sol, core, { messages, ids, clock, memories }) {
  const store = await sol.openStore("sqlite::memory:");
  try {
    for (const [i, m] of memories.slice(0, 200).entries()) {
      await store.memories.save({ ...memoryFields(m, i), tenantId: TENANT, memoryId: `mem_${m.memoryId}` });
    }
    const service = sol.createTurnService({
      store,
      provider: sol.createOfflineProvider({ clock }),
      engines: sol.createTurnEngines(),
      clock,
      ids,
      windowSize: 12,
      ...servedStoreDeps(sol, core, clock, ids)(store),
    });
    const runs = [];
    for (let i = 0; i < 3 * messages.length; i++) {
      const packet = {
        requestId: `tpl-${i}`,
        threadId: `tpl-${i % 3}`,
        message: messages[i % messages.length],
      };
      const bodyHash = sol.sha256Hex(sol.canonicalJson(packet));
      const outcome = await service.runTurn({ tenantId: TENANT, bodyHash }, packet);
      runs.push(await store.traces.get(TENANT, outcome.response.trace.traceRunId));
    }
    return runs;
  } finally {
    await store.close();
  }
}

/** The stored fields of a generated memory, as a save through the API would give them. */
function memoryFields(m, i) {
  // Most memories carry no domain flag; some are finance or legal (the turns' search ranks flags).
  const flags = i % 10 === 3 ? ["finance"] : i % 25 === 7 ? ["legal"] : [];
  return {
    requestId: `seed-${m.memoryId}`,
    bodyHash: randomBytes(32).toString("hex"),
    text: m.text,
    summary: m.summary,
    domainFlags: flags,
    threadId: m.threadId,
    source: i % 7 === 0 ? "assistant" : i % 41 === 1 ? "import" : "user",
    createdAt: m.createdAt,
  };
}

/** Random lower-case hex strings of `bytes` bytes, cut from large random buffers (fast for millions). */
function hexSource(bytes) {
  const CHUNK = 65_536;
  let buf = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + bytes > buf.length) {
      buf = randomBytes(CHUNK * bytes);
      at = 0;
    }
    const s = buf.toString("hex", at, at + bytes);
    at += bytes;
    return s;
  };
}

/** The first 12 hex digits of an id made at `ms`, as the server's ids begin (util/ids.ts). */
const timeHex = (ms) => Math.floor(ms).toString(16).padStart(12, "0").slice(-12);

const ID_PATTERN = /\b(att|tx|tr|mem|msg|act|ck)_[0-9a-f]{32}\b/g;

/**
 * Writes `traceEvents` events (copies of the template runs, fresh ids, a chain of random hashes and
 * one anchor per run, as each turn appends once) and `memoryCount` memories into the tenant, in one
 * transaction per table. The FTS5 index follows the memories through the migration's triggers.
 */
function seed(Database, file, { traceEvents, memoryRows, templates, clock }) {
  const db = new Database(file);
  try {
    // The store reopens the file in WAL mode; a bulk load goes faster with a plain rollback journal.
    db.pragma("journal_mode = DELETE");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -262144");
    const meanRun = templates.reduce((n, r) => n + r.length, 0) / templates.length;
    const runs = Math.ceil(traceEvents / meanRun);
    const hex = hexSource(32);
    const insertEvent = db.prepare(`insert into trace_events (tenant_id, trace_run_id, seq, transmission_id,
      actor, phase, status, summary, metadata, ts, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertAnchor = db.prepare(`insert into trace_anchors (tenant_id, tenant_seq, trace_run_id,
      run_tail_seq, run_tail_hash, prev_anchor_hash, anchor_hash) values (?, ?, ?, ?, ?, ?, ?)`);
    const insertMemory = db.prepare(`insert into memories (tenant_id, memory_id, request_id, body_hash, text,
      summary, domain_flags, thread_id, source, context, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // The history ends now and goes back 90 days, runs evenly spaced, events of a run 1 ms apart.
    const end = clock.now();
    const step = (90 * DAY_MS) / runs;
    const t0 = performance.now();
    let written = 0;
    let runsWritten = 0;
    db.transaction(() => {
      let prevAnchor = "0".repeat(64);
      // `runs` is an estimate from the templates' mean length: the loop ends on the events written.
      for (let r = 0; written < traceEvents; r++, runsWritten++) {
        const template = templates[r % templates.length].slice(0, traceEvents - written);
        const start = Math.min(end - (runs - r) * step, end);
        // Ids shaped as the server makes them (util/ids.ts), dated at the run: a real history's ids
        // ascend with time, so the new turns' rows land after it in each index, not all over it.
        const id = () => `${timeHex(start)}${hex().slice(0, 20)}`;
        const runId = `tr_${id()}`;
        const txId = `tx_${id()}`;
        const fresh = new Map();
        const freshId = (old, prefix) => {
          if (prefix === "tr") return runId;
          if (prefix === "tx") return txId;
          if (!fresh.has(old)) fresh.set(old, `${prefix}_${id()}`);
          return fresh.get(old);
        };
        const thread = `history-thread-${r % HISTORY_THREADS}`;
        let prev = "0".repeat(64);
        for (const [seq, e] of template.entries()) {
          const metadata = JSON.stringify(e.metadata)
            .replace(ID_PATTERN, freshId)
            .replace(/"requestId":"[^"]*"/, `"requestId":"history-${r}"`)
            .replace(/"threadId":"[^"]*"/, `"threadId":"${thread}"`);
          const hash = hex();
          insertEvent.run(
            TENANT,
            runId,
            seq,
            txId,
            e.actor,
            e.phase,
            e.status,
            e.summary ?? null,
            metadata,
            new Date(start + seq).toISOString(),
            prev,
            hash,
          );
          prev = hash;
        }
        const anchor = hex();
        insertAnchor.run(TENANT, r, runId, template.length - 1, prev, prevAnchor, anchor);
        prevAnchor = anchor;
        written += template.length;
      }
    })();
    const traceMs = performance.now() - t0;
    const t1 = performance.now();
    db.transaction(() => {
      for (const [i, m] of memoryRows.entries()) {
        const f = memoryFields(m, i);
        insertMemory.run(
          TENANT,
          `mem_${m.memoryId}`,
          f.requestId,
          f.bodyHash,
          f.text,
          f.summary,
          JSON.stringify(f.domainFlags),
          f.threadId,
          f.source,
          m.context,
          f.createdAt,
          f.createdAt,
        );
      }
    })();
    const memoryMs = performance.now() - t1;
    db.pragma("journal_mode = WAL");
    return { traceMs, memoryMs, runs: runsWritten };
  } finally {
    db.close();
  }
}

/** Counts through the store itself, a trace run read back, and searches for a seeded word and the turns' messages. */
async function verifySeed(sol, url, { probeWord, messages, now }) {
  const store = await sol.openStore(url);
  try {
    const count = async (table) =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .where("tenant_id", "=", TENANT)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [traceEvents, traceAnchors, memories] = [
      await count("trace_events"),
      await count("trace_anchors"),
      await count("memories"),
    ];
    const traceRuns = Number(
      (
        await store.db
          .selectFrom("trace_events")
          .select((eb) => eb.fn.count("trace_run_id").distinct().as("n"))
          .where("tenant_id", "=", TENANT)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const firstRun = await store.db
      .selectFrom("trace_anchors")
      .select("trace_run_id")
      .where("tenant_id", "=", TENANT)
      .where("tenant_seq", "=", 0)
      .executeTakeFirst();
    const runEvents = firstRun ? (await store.traces.get(TENANT, firstRun.trace_run_id)).length : 0;
    const probeHits = (await store.memories.search(TENANT, { query: probeWord, limit: 10, now })).length;
    let messagesWithHits = 0;
    for (const query of messages) {
      if ((await store.memories.search(TENANT, { query, limit: 10, now })).length > 0) messagesWithHits++;
    }
    return {
      traceEvents,
      traceAnchors,
      traceRuns,
      runEvents,
      memories,
      probeWord,
      probeHits,
      messages: messages.length,
      messagesWithHits,
    };
  } finally {
    await store.close();
  }
}

/**
 * (d): turns on an empty SQLite file, then the same turns on a file holding `traces` trace events and
 * `memories` memories of the tenant; `benchTurnsInterleaved(urls, turns, warmup, deps)` is bench.mjs's (a)
 * over several stores, their turns interleaved.
 */
export async function benchGrowth({
  sol,
  repo,
  dir,
  benchTurnsInterleaved,
  turns,
  warmup,
  traces,
  memories,
  messages,
  ids,
  clock,
  progress,
}) {
  const Database = createRequire(join(repo, "packages/server/package.json"))("better-sqlite3");
  const vocab = vocabulary(repo, messages);
  const t0 = performance.now();
  const core = await import(join(repo, "packages/core/dist/index.js"));
  // Saved over the same 90 days as the trace history, so the ranking's recency sees a live tenant.
  const end = clock.now();
  const memoryRows = syntheticMemories(memories, vocab.words).map((m, i) => ({
    ...m,
    summary: core.deriveMemorySummary(m.text),
    createdAt: new Date(end - ((memories - i) * 90 * DAY_MS) / memories).toISOString(),
  }));
  const generateMs = performance.now() - t0;
  const templates = await traceTemplates(sol, core, { messages, ids, clock, memories: memoryRows });
  const loadedFile = join(dir, "growth-loaded.db");
  const loadedUrl = `sqlite:${loadedFile}`;
  // Migrations run through the store, so the seed meets the real schema (constraints, indexes, triggers).
  await (await sol.openStore(loadedUrl)).close();
  progress(`(d) seeding ${traces} trace events and ${memories} memories (vocabulary: ${vocab.source})`);
  const seeded = seed(Database, loadedFile, { traceEvents: traces, memoryRows, templates, clock });
  const seedMs = generateMs + seeded.traceMs + seeded.memoryMs;
  // A word of a seeded memory (its longest), found only if the seed is visible to the store.
  const probeWord =
    memoryRows.length === 0
      ? "none"
      : [...memoryRows[Math.floor(memoryRows.length / 2)].text.split(" ")].sort(
          (a, b) => b.length - a.length,
        )[0];
  const stored = await verifySeed(sol, loadedUrl, {
    probeWord,
    messages,
    now: new Date(clock.now()).toISOString(),
  });
  if (
    stored.traceEvents !== traces ||
    stored.memories !== memories ||
    (traces > 0 && stored.runEvents === 0) ||
    (memories > 0 && stored.probeHits === 0)
  ) {
    throw new Error(`(d) the seed is not what the store sees: ${JSON.stringify(stored)}`);
  }
  progress(`(d) ${turns} turns each on an empty SQLite file and on the seeded one, interleaved in batches`);
  const deps = servedStoreDeps(sol, core, clock, ids);
  const [empty, loaded] = await benchTurnsInterleaved(
    [`sqlite:${join(dir, "growth-empty.db")}`, loadedUrl],
    turns,
    warmup,
    deps,
  );
  for (const t of [empty, loaded]) delete t.sample;
  return {
    requested: { traces, memories },
    stored,
    vocabulary: vocab.source,
    seed: {
      ms: seedMs,
      generateMemoriesMs: generateMs,
      traceMs: seeded.traceMs,
      memoryMs: seeded.memoryMs,
      traceRuns: seeded.runs,
    },
    empty,
    loaded,
    ratio: { median: loaded.turn.median / empty.turn.median, p99: loaded.turn.p99 / empty.turn.p99 },
    goal: GROWTH_GOAL,
  };
}

/** The (d) section of the text report. */
export function printGrowth(g, row) {
  const s = g.stored;
  const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\n(d) cost growth: one turn in process, offline provider, SQLite file, tenant "bench" (${g.loaded.turns} turns each, store wired as sol serve)`,
  );
  console.log(
    `  seeded: ${s.traceEvents} trace events in ${s.traceRuns} runs (${s.traceAnchors} anchors), ${s.memories} memories (${g.vocabulary}) in ${sec(g.seed.ms)} (traces ${sec(g.seed.traceMs)}, memories ${sec(g.seed.generateMemoriesMs + g.seed.memoryMs)})`,
  );
  console.log(
    `  seen by the store: a run reads back ${s.runEvents} events; search "${s.probeWord}" ${s.probeHits} hits; ${s.messagesWithHits}/${s.messages} bench messages find memories`,
  );
  console.log(`  ${"".padEnd(46)}${"median".padStart(12)}${"p99".padStart(12)}`);
  console.log(row("turn via TurnService, empty store", g.empty.turn));
  console.log(row("turn via TurnService, loaded store", g.loaded.turn));
  const x = (v) => `${v.toFixed(2)}x`;
  console.log(
    `  ratio loaded/empty: median ${x(g.ratio.median)}, p99 ${x(g.ratio.p99)} (goal <= ${g.goal}x: ${g.ratio.median <= g.goal ? "met" : "not met"} at the median)`,
  );
}
