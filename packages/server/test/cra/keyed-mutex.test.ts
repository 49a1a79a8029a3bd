import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKeyedMutex } from "../../src/cra/index.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createKeyedMutex", () => {
  it("runs the tasks of one key one at a time, in arrival order; the queue empties afterwards", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.constantFrom("a", "b", "c"), ticks: fc.nat(3), fails: fc.boolean() }), {
          maxLength: 25,
        }),
        async (tasks) => {
          const mutex = createKeyedMutex();
          const running = new Map<string, number>();
          const order = new Map<string, number[]>();
          let overlap = false;
          await Promise.allSettled(
            tasks.map((task, index) =>
              mutex.run(task.key, async () => {
                running.set(task.key, (running.get(task.key) ?? 0) + 1);
                if ((running.get(task.key) ?? 0) > 1) overlap = true;
                order.set(task.key, [...(order.get(task.key) ?? []), index]);
                for (let i = 0; i < task.ticks; i++) await tick();
                running.set(task.key, (running.get(task.key) ?? 0) - 1);
                if (task.fails) throw new Error("task failed");
              }),
            ),
          );
          expect(overlap).toBe(false);
          for (const [key, indexes] of order) {
            const expected = tasks.flatMap((t, i) => (t.key === key ? [i] : []));
            expect(indexes).toEqual(expected);
          }
          expect(mutex.size).toBe(0);
        },
      ),
    );
  });

  it("does not hold one key's tasks behind another key's", async () => {
    const mutex = createKeyedMutex();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first task waits for the second; with one shared queue this would never finish.
    const first = mutex.run("a", () => gate.then(() => "a"));
    const second = mutex.run("b", async () => {
      release();
      return "b";
    });
    expect(await Promise.all([first, second])).toEqual(["a", "b"]);
  });

  it("passes results and errors through", async () => {
    const mutex = createKeyedMutex();
    await expect(mutex.run("k", async () => 42)).resolves.toBe(42);
    await expect(mutex.run("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(mutex.run("k", async () => "after")).resolves.toBe("after");
  });
});
