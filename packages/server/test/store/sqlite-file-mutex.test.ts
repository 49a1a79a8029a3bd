import { describe, expect, it } from "vitest";
import { FileMutex } from "../../src/store/drivers/sqlite/file-mutex.js";

describe("FileMutex", () => {
  it("hands the lock over in the order it was asked for, one holder at a time", async () => {
    const mutex = new FileMutex();
    const order: string[] = [];
    let holders = 0;
    const use = async (name: string, ticks: number) => {
      const release = await mutex.lock();
      holders++;
      expect(holders).toBe(1);
      order.push(`${name}:in`);
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      order.push(`${name}:out`);
      holders--;
      release();
    };
    await Promise.all([use("a", 3), use("b", 0), use("c", 5), use("d", 1)]);
    expect(order).toEqual(["a:in", "a:out", "b:in", "b:out", "c:in", "c:out", "d:in", "d:out"]);
  });

  it("ignores a second release, which must not free the next holder's lock", async () => {
    const mutex = new FileMutex();
    const first = await mutex.lock();
    const second = mutex.lock();
    let thirdIn = false;
    const third = mutex.lock().then((release) => {
      thirdIn = true;
      return release;
    });
    first();
    const releaseSecond = await second;
    first();
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdIn).toBe(false);
    releaseSecond();
    (await third)();
    expect(thirdIn).toBe(true);
    // Free again: the next lock is granted at once.
    const again = await mutex.lock();
    again();
  });
});
