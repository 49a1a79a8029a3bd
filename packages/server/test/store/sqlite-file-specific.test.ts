import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import { claimInput, T0, turnInput } from "./support/samples.js";

const T = "tenant-a";
let dir: string;
const opened: SqlSolStore[] = [];

async function open(url: string, options: Parameters<typeof openStore>[1] = {}): Promise<SqlSolStore> {
  const store = await openStore(url, options);
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sol-sqlite-"));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Takes SQLite's write lock from another thread (its own connection), holds it for `holdMs`, then
 * commits. It releases on its own because the main thread will be blocked in the busy handler.
 */
function holdWriteLock(file: string, holdMs: number): Promise<Worker> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(
    `const { workerData, parentPort } = require("node:worker_threads");
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec("begin immediate");
     db.prepare("insert into transmissions (tenant_id, transmission_id, request_id, thread_id, type, status, body_hash, trace_run_id, created_at, updated_at) values ('tenant-a', 'tx-worker', 'worker', 'thread-1', 'chat', 'queued', 'h', 'run', 'x', 'x')").run();
     parentPort.postMessage("locked");
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.exec("commit");
     db.close();`,
    { eval: true, workerData: { driver, file, holdMs } },
  );
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", () => resolve(worker));
  });
}

describe("SQLite file store", () => {
  it("creates parent directories and turns on WAL, foreign keys and busy_timeout", async () => {
    const file = join(dir, "a", "b", "sol.db");
    const store = await open(`sqlite:${file}`, { busyTimeoutMs: 1234 });
    expect(existsSync(file)).toBe(true);
    const pragma = async (name: string) =>
      Object.values(
        (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.db)).rows[0] ?? {},
      )[0];
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("foreign_keys")).toBe(1);
    expect(await pragma("busy_timeout")).toBe(1234);
  });

  it("keeps data across close and reopen", async () => {
    const url = `sqlite:${join(dir, "sol.db")}`;
    const first = await openStore(url);
    await first.transmissions.claim(claimInput(T, "r1"));
    await first.close();
    const second = await open(url);
    expect((await second.transmissions.getByRequestId(T, "r1"))?.transmissionId).toBe("tx-r1");
    expect(await second.migrate()).toEqual([]);
  });

  it("stores opened with two spellings of one path share the in-process lock", async () => {
    // A short busy timeout: without a shared lock the second connection would block the thread the
    // first needs to commit, and fail with SQLITE_BUSY.
    const a = await open(`sqlite:${join(dir, "sol.db")}`, { busyTimeoutMs: 100 });
    const b = await open(`sqlite:${join(dir, ".", "x", "..", "sol.db")}`, { busyTimeoutMs: 100 });
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const store = i % 2 === 0 ? a : b;
        await store.transmissions.claim(claimInput(T, `r${i}`));
        await store.transmissions.setStatus(T, `tx-r${i}`, "queued", "sending", T0);
        expect((await store.commitTurn(turnInput(T, `r${i}`, i))).ok).toBe(true);
        await store.traces.append(T, "shared-run", null, [
          { actor: "solserver", phase: `p${i}`, status: "completed", metadata: {} },
        ]);
      }),
    );
    expect(await a.messages.countInThread(T, "thread-1")).toBe(20);
    expect(await b.traces.get(T, "shared-run")).toHaveLength(10);
  });

  it("waits for another connection's write lock instead of failing", async () => {
    const file = join(dir, "sol.db");
    const store = await open(`sqlite:${file}`, { busyTimeoutMs: 10_000 });
    const worker = await holdWriteLock(file, 300);
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    // The claim blocks in SQLite's busy handler until the worker commits on its own thread.
    expect((await store.transmissions.claim(claimInput(T, "main"))).kind).toBe("created");
    expect(await store.transmissions.count(T)).toBe(2);
    await exited;
  });

  it("checkpoints the WAL from a background thread while the store stays open", async () => {
    const file = join(dir, "sol.db");
    const store = await open(`sqlite:${file}`);
    const initial = statSync(file).size;
    for (let i = 0; i < 50; i++) await store.transmissions.claim(claimInput(T, `r${i}`));
    // Only a checkpoint copies pages into the database file; the writer's own backstop is ~40 MB away.
    const deadline = Date.now() + 10_000;
    while (statSync(file).size <= initial && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(statSync(file).size).toBeGreaterThan(initial);
    const row = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(row.rows[0]?.wal_autocheckpoint).toBe(10_000);
  });

  it("still checkpoints writes that follow a quiet spell (the background thread slows down when idle)", async () => {
    const file = join(dir, "sol.db");
    const store = await open(`sqlite:${file}`);
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Only a checkpoint writes the database file (the writer appends to the WAL): its mtime says when.
    const written = () => statSync(file).mtimeMs;
    const writtenAfter = async (since: number) => {
      const deadline = Date.now() + 10_000;
      while (written() === since && Date.now() < deadline) await pause(25);
      return written() !== since;
    };
    for (let i = 0; i < 50; i++) await store.transmissions.claim(claimInput(T, `a${i}`));
    // Settled: the first batch is in the file and nothing more is copied for a while.
    let settled = written();
    for (let stable = 0; stable < 4; ) {
      await pause(100);
      stable = written() === settled ? stable + 1 : 0;
      settled = written();
    }
    // Longer than the ten quiet ticks after which the thread looks less often.
    await pause(1_500);
    expect(written()).toBe(settled);
    for (let i = 0; i < 50; i++) await store.transmissions.claim(claimInput(T, `b${i}`));
    expect(await writtenAfter(settled)).toBe(true);
    expect(await store.transmissions.count(T)).toBe(100);
  });
});
