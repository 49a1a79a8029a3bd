/** Lets a synchronous retry loop pause without spinning (the SQLite driver is synchronous too). */
const pause = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_BUSY_RECOVERY" || code === "SQLITE_BUSY_SNAPSHOT";
}

/**
 * Runs `step` again while it fails with SQLITE_BUSY, for up to `budgetMs`, pausing 1, 2, 4 ... 50 ms
 * between tries. Some lock conflicts are reported at once, whatever busy_timeout says: when several
 * threads or processes open one new database file together, switching it to WAL can fail that way.
 * Other errors, and a busy error once the budget is spent, are thrown as they are.
 */
export function retryWhileBusy<T>(
  step: () => T,
  budgetMs: number,
  clock: { now(): number; sleep(ms: number): void } = { now: Date.now, sleep: sleepSync },
): T {
  const deadline = clock.now() + budgetMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || clock.now() >= deadline) throw error;
      clock.sleep(wait);
    }
  }
}
