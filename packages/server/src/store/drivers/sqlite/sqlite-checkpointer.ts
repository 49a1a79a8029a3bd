import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the background thread copies committed WAL frames into the database file. */
const DEFAULT_INTERVAL_MS = 100;
/**
 * Its interval once nothing was committed for QUIET_TICKS ticks. Short enough that a burst after a
 * quiet spell (about 20,000 frames a second at the facade's peak) stays below the writer's backstop.
 */
const IDLE_INTERVAL_MS = 250;
const QUIET_TICKS = 10;

// Runs in the worker (CommonJS eval): its own connection, PASSIVE checkpoints, never waits for a lock.
// Both pragmas are prepared once, and a tick checkpoints only when data_version moved since the last
// complete checkpoint: another connection's commit moves it (anything else that does only costs one
// more checkpoint). An idle server's ticks re-parsed the pragma and took the WAL's file locks ten
// times a second, about 0.5 ms each (0.55% of a core).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true });
const dataVersion = db.prepare("PRAGMA data_version").pluck();
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
let done = null;
let quiet = 0;
let timer;
const tick = () => {
  try {
    const version = dataVersion.get();
    if (version === done) quiet++;
    else {
      quiet = 0;
      const [result] = checkpoint.all();
      // Complete only when every frame was copied (a reader may hold some back): else retried.
      if (result && result.busy === 0 && result.checkpointed === result.log) done = version;
    }
  } catch {}
  timer = setTimeout(tick, quiet >= workerData.quietTicks ? workerData.idleIntervalMs : workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

interface Running {
  readonly worker: Worker;
  readonly exited: Promise<void>;
  refs: number;
}

const running = new Map<string, Running>();

/**
 * Checkpoints a WAL-mode SQLite file from a worker thread, one per file in this process (reference
 * counted). A checkpoint copies pages into the database file and fsyncs it; done by the connection
 * that happens to commit, it stalls the event loop for every request in flight, which is where the
 * p99 tail of a busy server came from. PASSIVE never blocks writers; the writing connection keeps a
 * large `wal_autocheckpoint` only as a backstop. Returns the release function.
 */
export function acquireCheckpointer(file: string, intervalMs = DEFAULT_INTERVAL_MS): () => Promise<void> {
  let entry = running.get(file);
  if (entry === undefined) {
    const modulePath = createRequire(import.meta.url).resolve("better-sqlite3");
    const workerData = {
      modulePath,
      file,
      intervalMs,
      idleIntervalMs: Math.max(intervalMs, IDLE_INTERVAL_MS),
      quietTicks: QUIET_TICKS,
    };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    // Never keeps the process alive, and a failed checkpointer only means the backstop takes over.
    worker.unref();
    worker.on("error", () => {});
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    entry = { worker, exited, refs: 0 };
    running.set(file, entry);
  }
  entry.refs += 1;
  const held = entry;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    held.refs -= 1;
    if (held.refs > 0) return;
    if (running.get(file) === held) running.delete(file);
    // Referenced again while stopping: an unref'd worker would let the process exit mid-await.
    held.worker.ref();
    held.worker.postMessage("stop");
    await held.exited;
  };
}
