import { isSolError, REBUILT_META_KEYS } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { A, B, NOW, open, rejection } from "./agency-task-fixtures.js";
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

  describe("thought history", () => {
    it("appends thoughts, returns the most recent oldest first, scoped by tenant", async () => {
      const { thoughts } = await open(harness);
      for (let i = 1; i <= 4; i++) {
        await thoughts.append(A, {
          thought: {
            id: `th-${i}`,
            text: `thought ${i}`,
            source: "llm",
            novelty: i === 3 ? "low" : "high",
            ...(i === 3 ? { convertEligible: false } : {}),
            tags: ["llm"],
            metadata: i === 2 ? { goalKey: "explore:nearby" } : {},
            createdAtMs: NOW + i,
          },
          broadcast: i !== 3,
          ...(i === 2 ? { decision: "created", taskId: "task-9" } : {}),
        });
      }
      const recent = await thoughts.listRecent(A, 3);
      expect(recent.map((e) => e.thought.id)).toEqual(["th-2", "th-3", "th-4"]);
      expect(recent[0]).toMatchObject({ decision: "created", taskId: "task-9", broadcast: true });
      expect(recent[1]).toMatchObject({
        broadcast: false,
        thought: { novelty: "low", convertEligible: false },
      });
      expect(await thoughts.count(A)).toBe(4);
      expect(await thoughts.listRecent(B, 10)).toEqual([]);
      expect(await thoughts.listRecent(A, 0)).toEqual([]);
    });
  });
}
