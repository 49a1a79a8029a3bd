import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { retryWhileBusy } from "../../src/store/drivers/sqlite/sqlite-retry.js";
import type { SqlSolStore } from "../../src/store/index.js";
import { openWorkerStore } from "../../src/store/worker/open-worker-store.js";
import { claimInput, turnInput } from "./support/samples.js";

function busy(): Error {
  return Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
}

/** A clock that only moves when the retry loop sleeps. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep(ms: number) {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe("retryWhileBusy", () => {
  it("runs the step again after SQLITE_BUSY, with growing pauses, until it succeeds", () => {
    const clock = fakeClock();
    let calls = 0;
    const value = retryWhileBusy(
      () => {
        calls += 1;
        if (calls <= 3) throw busy();
        return "opened";
      },
      1000,
      clock,
    );
    expect(value).toBe("opened");
    expect(clock.sleeps).toEqual([1, 2, 4]);
  });

  it("throws any other error at once", () => {
    const clock = fakeClock();
    const error = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    expect(() =>
      retryWhileBusy(
        () => {
          throw error;
        },
        1000,
        clock,
      ),
    ).toThrow(error);
    expect(clock.sleeps).toEqual([]);
  });

  it("gives up with the busy error once the budget is spent, pausing at most 50 ms at a time", () => {
    const clock = fakeClock();
    const last = busy();
    expect(() =>
      retryWhileBusy(
        () => {
          throw last;
        },
        300,
        clock,
      ),
    ).toThrow(last);
    expect(Math.max(...clock.sleeps)).toBe(50);
    expect(clock.now()).toBeGreaterThanOrEqual(300);
    expect(clock.now()).toBeLessThan(300 + 50 + 1);
  });
});

describe("stores opening one new SQLite file at once", () => {
  const dirs: string[] = [];
  const stores: SqlSolStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("all open, each on its own thread, and all see one database", async () => {
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), "sol-open-race-"));
      dirs.push(dir);
      const url = `sqlite:${join(dir, "nested", "sol.db")}`;
      const opened = await Promise.all(Array.from({ length: 6 }, () => openWorkerStore(url)));
      stores.push(...opened);
      const [first, ...others] = opened;
      if (first === undefined) throw new Error("no store opened");
      await first.transmissions.claim(claimInput("tenant-a", `r${round}`));
      await first.commitTurn(turnInput("tenant-a", `r${round}`, 1));
      for (const other of others) {
        expect(await other.messages.countInThread("tenant-a", "thread-1")).toBe(2);
      }
    }
  });
});
