import { isSolError, REBUILT_META_KEYS } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { A, NOW, open, rejection } from "./agency-task-fixtures.js";
import type { Harness } from "./harness.js";

/** `addTask` (the agency contract's name) and the thought history, on every backend. */
export function agencyAddTaskContract(harness: Harness): void {
  describe("agency task store: addTask", () => {
    it("addTask drops empty-string goalKey (never reaches task.metadata)", async () => {
      const { tasks } = await open(harness);
      const task = await tasks.addTask(
        A,
        { type: "gathering", title: "Collect oak", metadata: { goalKey: "" } },
        { nowMs: NOW, allowUnfinalized: true },
      );
      expect(task.metadata).not.toHaveProperty("goalKey");
      expect((await tasks.get(A, task.id))?.metadata).not.toHaveProperty("goalKey");
      expect(await tasks.findByGoalKey(A, "")).toEqual([]);
    });

    it("addTask rebuilds metadata from scratch: rebuilt keys set, only allowlisted keys kept, no origin", async () => {
      const warnings: string[] = [];
      const { tasks } = await open(harness, { warn: (m) => warnings.push(m) });
      const task = await tasks.addTask(
        A,
        {
          type: "gathering",
          title: "Collect 8 oak log",
          parameters: { action: "collect", target: "oak_log", amount: 8 },
          metadata: {
            goalKey: "collect:oak_log",
            createdAt: 1,
            retryCount: 7,
            secretFlag: true,
            origin: { kind: "api", stampedAtMs: 1 },
          },
        },
        { nowMs: NOW, taskId: "task-chosen", allowUnfinalized: true },
      );
      expect(task.id).toBe("task-chosen");
      expect(task.status).toBe("pending");
      expect(task.metadata).toMatchObject({ goalKey: "collect:oak_log", createdAt: NOW, retryCount: 0 });
      expect(Object.keys(task.metadata).sort()).toEqual(["goalKey", ...REBUILT_META_KEYS].sort());
      expect(await tasks.get(A, task.id)).toEqual(task);
      expect(warnings.filter((w) => w.includes('"secretFlag"'))).toHaveLength(1);
      // Two adds get two fresh ids when none is given.
      const [one, two] = await Promise.all([
        tasks.addTask(A, { type: "explore", title: "Look around" }, { allowUnfinalized: true }),
        tasks.addTask(A, { type: "explore", title: "Look around" }, { allowUnfinalized: true }),
      ]);
      expect(one?.id).not.toBe(two?.id);
      expect(await tasks.count(A)).toBe(3);
    });

    it("addTask refuses invalid data with invalid_input and stores nothing", async () => {
      const { tasks } = await open(harness);
      const missingTitle = await rejection(tasks.addTask(A, { type: "gathering" }, { nowMs: NOW }));
      expect(isSolError(missingTitle) && missingTitle.code).toBe("invalid_input");
      const badId = await rejection(tasks.addTask(A, { type: "x", title: "y" }, { taskId: "" }));
      expect(isSolError(badId) && badId.code).toBe("invalid_input");
      expect(await tasks.count(A)).toBe(0);
    });
  });
}
