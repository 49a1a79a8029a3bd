import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createManualClock, isSolError, SolError } from "@solserver/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createSolServer } from "../../src/index.js";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import { isThreadedStore, openStoreOn } from "../../src/store/worker/open-threaded.js";
import {
  openWorkerStore,
  storeThreadAvailable,
  storeThreadModule,
  type ThreadedSqlStore,
} from "../../src/store/worker/open-worker-store.js";
import { decodeError, encodeError } from "../../src/store/worker/rpc.js";
import { claimInput, T0, turnInput } from "./support/samples.js";

const T = "tenant-a";
let dir: string;
const opened: SqlSolStore[] = [];

async function track<S extends SqlSolStore>(store: Promise<S>): Promise<S> {
  const value = await store;
  opened.push(value);
  return value;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "resolved",
    (error: unknown) => error,
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sol-store-thread-"));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite store on its own thread", () => {
  it("shares the file with a calling-thread store: a turn written through the thread is read here", async () => {
    const url = `sqlite:${join(dir, "sol.db")}`;
    const threaded = await track(openWorkerStore(url));
    expect(threaded.kind).toBe("sqlite");
    await threaded.transmissions.claim(claimInput(T, "r1"));
    expect(await threaded.commitTurn(turnInput(T, "r1", 1))).toEqual({ ok: true, mementoVersion: null });
    const local = await track(openStore(url));
    expect((await local.messages.listRecent(T, "thread-1", 10)).map((m) => m.content)).toEqual([
      "question 1",
      "answer 1",
    ]);
    // `db` is a connection on this thread, for ad hoc queries.
    const rows = await threaded.db.selectFrom("responses").select("request_id").execute();
    expect(rows).toEqual([{ request_id: "r1" }]);
  });

  it("errors keep their class, code and details across the thread", async () => {
    const store = await track(openWorkerStore(`sqlite:${join(dir, "sol.db")}`));
    const missing = await rejection(store.commitTurn(turnInput(T, "never-claimed", 1)));
    expect(missing).toBeInstanceOf(SolError);
    expect((missing as SolError).code).toBe("not_found");
    await store.transmissions.claim(claimInput(T, "r1"));
    await store.transmissions.setStatus(T, "tx-r1", "queued", "sending", T0);
    const bad = await rejection(store.transmissions.setStatus(T, "tx-r1", "sending", "queued", T0));
    expect(isSolError(bad) && bad.code).toBe("invalid_transition");
    expect((bad as SolError).details).toMatchObject({ from: "sending", to: "queued" });
  });

  it("refuses arguments that cannot cross (a function) with invalid_input, and keeps working", async () => {
    const store = await track(openWorkerStore(`sqlite:${join(dir, "sol.db")}`));
    const input = { ...claimInput(T, "r1"), extra: () => 1 };
    const error = await rejection(store.transmissions.claim(input));
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((await store.transmissions.claim(claimInput(T, "r1"))).kind).toBe("created");
    // Calls of one tick travel together: the one that cannot cross fails alone.
    const uncloneable = { ...claimInput(T, "r2"), extra: () => 2 };
    const [refused, accepted] = await Promise.allSettled([
      store.transmissions.claim(uncloneable),
      store.transmissions.claim(claimInput(T, "r3")),
    ]);
    expect(refused.status === "rejected" && isSolError(refused.reason) && refused.reason.code).toBe(
      "invalid_input",
    );
    expect(accepted.status === "fulfilled" && accepted.value.kind).toBe("created");
  });

  it("stamps trace events with the caller's own clock", async () => {
    const clock = createManualClock(Date.parse("2030-01-02T03:04:05.000Z"));
    const store = await track(openWorkerStore(`sqlite:${join(dir, "sol.db")}`, { clock }));
    const [event] = await store.traces.append(T, "run-1", null, [
      { actor: "solserver", phase: "route", status: "completed", metadata: {} },
    ]);
    expect(event?.ts).toBe("2030-01-02T03:04:05.000Z");
    clock.advance(1000);
    const [next] = await store.traces.append(T, "run-1", null, [
      { actor: "solserver", phase: "route", status: "completed", metadata: {} },
    ]);
    expect(next?.ts).toBe("2030-01-02T03:04:06.000Z");
  });

  it("after close: ping is false, calls reject with unavailable, close again resolves", async () => {
    const store = await openWorkerStore(`sqlite:${join(dir, "sol.db")}`);
    expect(await store.ping()).toBe(true);
    await store.close();
    expect(await store.ping()).toBe(false);
    const error = await rejection(store.transmissions.get(T, "tx"));
    expect(isSolError(error) && error.code).toBe("unavailable");
    await expect(store.close()).resolves.toBeUndefined();
  });

  it("a thread that stops unexpectedly is reported once; every call then fails with unavailable", async () => {
    const reports: SolError[] = [];
    const store = await track(
      openWorkerStore(`sqlite:${join(dir, "sol.db")}`, { onThreadStop: (error) => reports.push(error) }),
    );
    expect(await store.ping()).toBe(true);
    await store.thread.terminate();
    expect(reports).toHaveLength(1);
    expect(reports[0]?.code).toBe("unavailable");
    expect(await store.ping()).toBe(false);
    const error = await rejection(store.messages.listRecent(T, "thread-1", 5));
    expect(isSolError(error) && error.code).toBe("unavailable");
    // A deliberate close is not a stop to report.
    const quiet: SolError[] = [];
    const other = await openWorkerStore(`sqlite:${join(dir, "other.db")}`, {
      onThreadStop: (e) => quiet.push(e),
    });
    await other.close();
    expect(quiet).toEqual([]);
  });

  it("spreading the store opens no connection: db is not enumerable", async () => {
    const store = await track(openWorkerStore(`sqlite:${join(dir, "sol.db")}`));
    expect(Object.keys(store)).not.toContain("db");
    expect({ ...store }).not.toHaveProperty("db");
  });

  it("finds the built thread module beside the sources, even in a checkout under a src/ folder", () => {
    const root = "/home/dev/src/solserver/packages/server";
    expect(storeThreadModule(`${root}/src/store/worker/open-worker-store.ts`)).toBe(
      `${root}/dist/store/worker/store-thread.js`,
    );
    expect(storeThreadModule(`${root}/dist/store/worker/open-worker-store.js`)).toBe(
      `${root}/dist/store/worker/store-thread.js`,
    );
  });

  it("a store that cannot open fails with the thread's typed error, not a hang", async () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "not a directory");
    const error = await rejection(openWorkerStore(`sqlite:${join(blocker, "sol.db")}`));
    expect(isSolError(error) && error.code).toBe("unavailable");
    expect((error as Error).message).toContain("Cannot create the directory");
  });

  it("needs a SQLite file: memory and PostgreSQL URLs are invalid_input", async () => {
    for (const url of ["sqlite::memory:", "postgres://postgres@127.0.0.1:5432/test"]) {
      const error = await rejection(openWorkerStore(url));
      expect(isSolError(error) && error.code).toBe("invalid_input");
    }
    const forced = await rejection(openStoreOn("sqlite::memory:", "worker"));
    expect(isSolError(forced) && forced.code).toBe("invalid_input");
  });

  it("SOL_DB_THREAD auto puts a SQLite file on a thread and memory on the calling thread", async () => {
    // The build is present here (CI builds before testing), so auto takes the thread.
    expect(storeThreadAvailable()).toBe(true);
    const file = await track(openStoreOn(`sqlite:${join(dir, "sol.db")}`, "auto"));
    expect(isThreadedStore(file)).toBe(true);
    const memory = await track(openStoreOn("sqlite::memory:", "auto"));
    expect(isThreadedStore(memory)).toBe(false);
    const main = await track(openStoreOn(`sqlite:${join(dir, "main.db")}`, "main"));
    expect(isThreadedStore(main)).toBe(false);
    expect(loadConfig({ env: {} }).SOL_DB_THREAD).toBe("auto");
    expect(() => loadConfig({ env: { SOL_DB_THREAD: "fast" } })).toThrow(/SOL_DB_THREAD/);
  });

  it("gives the thread a 16 MB young generation by default, its own size on request, and V8's with 0", async () => {
    const young = (store: ThreadedSqlStore) => store.thread.resourceLimits?.maxYoungGenerationSizeMb;
    expect(young(await track(openWorkerStore(`sqlite:${join(dir, "a.db")}`)))).toBe(16);
    expect(young(await track(openWorkerStore(`sqlite:${join(dir, "b.db")}`, { youngGenerationMb: 8 })))).toBe(
      8,
    );
    const v8Default = young(
      await track(openWorkerStore(`sqlite:${join(dir, "c.db")}`, { youngGenerationMb: 0 })),
    );
    expect(v8Default).toBeGreaterThan(16);
    for (const bad of [-1, 1.5, 1025, Number.NaN]) {
      const error = await rejection(
        openWorkerStore(`sqlite:${join(dir, "d.db")}`, { youngGenerationMb: bad }),
      );
      expect(isSolError(error) && error.code).toBe("invalid_input");
    }
    expect(loadConfig({ env: {} }).SOL_DB_THREAD_YOUNG_MB).toBe(16);
    expect(loadConfig({ env: { SOL_DB_THREAD_YOUNG_MB: "0" } }).SOL_DB_THREAD_YOUNG_MB).toBe(0);
    expect(() => loadConfig({ env: { SOL_DB_THREAD_YOUNG_MB: "2048" } })).toThrow(/SOL_DB_THREAD_YOUNG_MB/);
  });

  it("sol serve gives its store thread SOL_DB_THREAD_YOUNG_MB", async () => {
    const env = { SOL_DB_URL: `sqlite:${join(dir, "served.db")}`, SOL_DB_THREAD_YOUNG_MB: "12" };
    const server = await createSolServer(loadConfig({ env: { ...env, SOL_LOG_LEVEL: "silent" } }), {
      logger: false,
    });
    try {
      expect(isThreadedStore(server.store)).toBe(true);
      expect((server.store as ThreadedSqlStore).thread.resourceLimits?.maxYoungGenerationSizeMb).toBe(12);
    } finally {
      await server.close();
    }
  });

  it("the agency store runs on the thread too", async () => {
    const store = await track(openWorkerStore(`sqlite:${join(dir, "sol.db")}`));
    expect(await store.agency.tasks.count(T)).toBe(0);
    expect(await store.agency.tasks.listByStatus(T)).toEqual([]);
  });

  it("an open store does not keep the process alive, and a pending call does", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const entry = pathToFileURL(resolve(here, "../../dist/store/worker/open-worker-store.js")).href;
    const script = `
      import { openWorkerStore } from ${JSON.stringify(entry)};
      const store = await openWorkerStore(${JSON.stringify(`sqlite:${join(dir, "child.db")}`)});
      store.ping().then((alive) => console.log("ping " + alive));
    `;
    // Run as node -e and as a file, each with a per-process V8 flag the thread must not choke on.
    const file = join(dir, "child.mjs");
    writeFileSync(file, script);
    for (const args of [
      ["--max-semi-space-size=16", "--input-type=module", "-e", script],
      ["--max-semi-space-size=16", file],
    ]) {
      const child = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 20_000 });
      expect(child.stderr).toBe("");
      expect(child.status).toBe(0);
      expect(child.stdout.trim()).toBe("ping true");
    }
    // Opened, never called, never closed: the process still ends on its own (no timeout kill).
    const idle = `
      import { openWorkerStore } from ${JSON.stringify(entry)};
      await openWorkerStore(${JSON.stringify(`sqlite:${join(dir, "idle.db")}`)});
      console.log("opened");
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", idle], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe("opened");
  });
});

describe("store thread messages", () => {
  it("an encoded error keeps name, message, driver code and its cause chain", () => {
    const cause = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const error = new SolError("unavailable", "busy", { cause, details: { retry: true } });
    const back = decodeError(structuredClone(encodeError(error)));
    expect(back).toBeInstanceOf(SolError);
    expect(back).toMatchObject({ code: "unavailable", message: "busy", details: { retry: true } });
    const inner = (back as Error & { cause?: unknown }).cause as Error & { code?: string };
    expect(inner.message).toBe("database is locked");
    expect(inner.code).toBe("SQLITE_BUSY");
    expect(decodeError(encodeError("plain"))).toMatchObject({ message: "plain" });
  });
});
