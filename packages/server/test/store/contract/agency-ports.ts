import { finalizeNewTask, isSolError, PROPAGATED_META_KEYS, REBUILT_META_KEYS } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  A,
  B,
  counterIds,
  NOW,
  newTask,
  openPorts,
  rejection,
  withRawMetadata,
} from "./agency-task-fixtures.js";
import type { PortHarness } from "./harness.js";

/** The agency stores through their ports: tasks (projection, paging, origin) and the thought history. */
export function agencyPortContract(harness: PortHarness): void {
  describe("agency task store", () => {
    it("stores and reads back a finalized task, oldest first, by status and goalKey", async () => {
      const { tasks } = await openPorts(harness);
      const ids = counterIds();
      const first = newTask(ids);
      const second = newTask(ids, { goalKey: "explore:nearby", nowMs: NOW + 1000 });
      await tasks.add(A, first);
      await tasks.add(A, second);
      expect(await tasks.get(A, first.id)).toEqual(first);
      expect((await tasks.listByStatus(A)).map((t) => t.id)).toEqual([first.id, second.id]);
      expect(await tasks.listByStatus(A, ["active"])).toEqual([]);
      expect((await tasks.findByGoalKey(A, "explore:nearby")).map((t) => t.id)).toEqual([second.id]);
      expect(await tasks.findByGoalKey(A, "collect:oak_log", ["completed"])).toEqual([]);
      expect(await tasks.findByGoalKey(A, "")).toEqual([]);
      expect(await tasks.count(A)).toBe(2);
      const duplicate = await rejection(tasks.add(A, first));
      expect(isSolError(duplicate) && duplicate.code).toBe("conflict");
    });

    it("lists tasks in pages: after a task, at most limit, still oldest first and by status", async () => {
      const { tasks } = await openPorts(harness);
      const ids = counterIds();
      const all = Array.from({ length: 5 }, (_, i) => newTask(ids, { nowMs: NOW + i }));
      for (const task of all) await tasks.add(A, task);
      const at = (i: number) => (all[i] as { id: string }).id;
      const listed = async (page: { afterTaskId?: string; limit?: number }, statuses?: ["pending"]) =>
        (await tasks.listByStatus(A, statuses, page)).map((t) => t.id);
      expect(await listed({ limit: 2 })).toEqual([at(0), at(1)]);
      expect(await listed({ afterTaskId: at(1), limit: 2 })).toEqual([at(2), at(3)]);
      expect(await listed({ afterTaskId: at(3) }, ["pending"])).toEqual([at(4)]);
      expect(await listed({ afterTaskId: at(4) })).toEqual([]);
      // After a task that does not exist (or is another tenant's): nothing, rather than the whole list.
      expect(await listed({ afterTaskId: "task_unknown" })).toEqual([]);
      expect(await tasks.listByStatus(B, undefined, { afterTaskId: at(0) })).toEqual([]);
      for (const limit of [0, 2.5, -1]) {
        const refused = await rejection(tasks.listByStatus(A, undefined, { limit }));
        expect(isSolError(refused) && refused.code).toBe("invalid_input");
      }
    });

    it("projects metadata at the store boundary: only allowlisted, rebuilt keys and origin survive", async () => {
      const warnings: string[] = [];
      const { tasks } = await openPorts(harness, { warn: (m) => warnings.push(m) });
      const ids = counterIds();
      const task = withRawMetadata(newTask(ids), {
        secretFlag: true,
        blockedReason: "smuggled",
        novelty: "low",
      });
      await tasks.add(A, task);
      const stored = await tasks.get(A, task.id);
      expect(stored?.metadata).not.toHaveProperty("secretFlag");
      expect(stored?.metadata).not.toHaveProperty("blockedReason");
      expect(stored?.metadata).not.toHaveProperty("novelty");
      expect(stored?.metadata.goalKey).toBe("collect:oak_log");
      expect(stored?.metadata.origin).toEqual(task.metadata.origin);
      // One warning per dropped key per session, even when the key comes again.
      await tasks.add(A, withRawMetadata(newTask(ids), { secretFlag: 1 }));
      expect(warnings.filter((w) => w.includes('"secretFlag"'))).toHaveLength(1);
      expect(warnings.filter((w) => w.includes('"blockedReason"'))).toHaveLength(1);
    });

    it("does not warn about dropped keys in production", async () => {
      const warnings: string[] = [];
      const { tasks } = await openPorts(harness, { warn: (m) => warnings.push(m), isProduction: true });
      const task = withRawMetadata(newTask(counterIds()), { secretFlag: true });
      await tasks.add(A, task);
      expect((await tasks.get(A, task.id))?.metadata).not.toHaveProperty("secretFlag");
      expect(warnings).toEqual([]);
    });

    it("stamps origin once on a task stored unfinalized, and never again", async () => {
      const { tasks } = await openPorts(harness);
      const task = newTask(counterIds(), { finalize: false });
      await tasks.add(A, task, { allowUnfinalized: true });
      expect((await tasks.get(A, task.id))?.metadata.origin).toBeUndefined();
      const stamped = finalizeNewTask(task, { kind: "system", source: "late" }, { nowMs: NOW + 1 });
      await tasks.update(A, stamped);
      expect((await tasks.get(A, task.id))?.metadata.origin).toEqual(stamped.metadata.origin);
      const again = finalizeNewTask(task, { kind: "api" }, { nowMs: NOW + 2 });
      await tasks.update(A, again);
      expect((await tasks.get(A, task.id))?.metadata.origin).toEqual(stamped.metadata.origin);
    });

    it("property: whatever metadata comes in, stored keys stay within the allowlist and goalKey is never empty", async () => {
      const { tasks } = await openPorts(harness);
      const allowed = new Set<string>([...PROPAGATED_META_KEYS, ...REBUILT_META_KEYS, "origin"]);
      const ids = counterIds();
      const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.oneof(
              fc.constantFrom(...PROPAGATED_META_KEYS, "origin", "foo", "novelty"),
              fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__"),
            ),
            value,
            { maxKeys: 6 },
          ),
          async (extra) => {
            const task = withRawMetadata(newTask(ids), extra);
            const outcome = await rejection(tasks.add(A, task));
            if (outcome !== "resolved") {
              // An invalid origin (or a mangled rebuilt key) is refused as bad input, never stored.
              expect(isSolError(outcome) && outcome.code).toBe("invalid_input");
              return;
            }
            const stored = await tasks.get(A, task.id);
            for (const key of Object.keys(stored?.metadata ?? {})) expect(allowed.has(key)).toBe(true);
            expect(stored?.metadata.goalKey).not.toBe("");
          },
        ),
        { numRuns: 30 },
      );
    });
  });

  describe("thought history", () => {
    it("appends thoughts, returns the most recent oldest first, scoped by tenant", async () => {
      const { thoughts } = await openPorts(harness);
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
