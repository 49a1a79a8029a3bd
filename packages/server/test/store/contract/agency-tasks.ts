import {
  finalizeNewTask,
  isSolError,
  PROPAGATED_META_KEYS,
  REBUILT_META_KEYS,
  STUCK_TIMEOUT_MS,
} from "@solserver/core";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { A, B, counterIds, NOW, newTask, open, rejection, withRawMetadata } from "./agency-task-fixtures.js";
import type { Harness } from "./harness.js";

/** The agency task store: projection, origin, goalKey, strict finalize, claims and goal holders. */
export function agencyTaskContract(harness: Harness): void {
  describe("agency task store", () => {
    it("stores and reads back a finalized task, oldest first, by status and goalKey", async () => {
      const { tasks } = await open(harness);
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
      const { tasks } = await open(harness);
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
      const { tasks } = await open(harness, { warn: (m) => warnings.push(m) });
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
      const { tasks } = await open(harness, { warn: (m) => warnings.push(m), isProduction: true });
      const task = withRawMetadata(newTask(counterIds()), { secretFlag: true });
      await tasks.add(A, task);
      expect((await tasks.get(A, task.id))?.metadata).not.toHaveProperty("secretFlag");
      expect(warnings).toEqual([]);
    });

    it("without options, NODE_ENV and PLANNING_STRICT_FINALIZE set the defaults", async () => {
      const warnings: string[] = [];
      const warn = (m: string) => warnings.push(m);
      try {
        vi.stubEnv("PLANNING_STRICT_FINALIZE", "1");
        vi.stubEnv("NODE_ENV", "production");
        const { tasks } = await open(harness, { warn });
        const bare = withRawMetadata(newTask(counterIds(), { finalize: false }), { secretFlag: true });
        await tasks.setTask(A, bare);
        // Production: the dropped key is not reported; strict finalize: the missing origin is.
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain("PLANNING_STRICT_FINALIZE");
        vi.stubEnv("PLANNING_STRICT_FINALIZE", "0");
        vi.stubEnv("NODE_ENV", "development");
        const dev = await open(harness, { warn });
        await dev.tasks.setTask(
          B,
          withRawMetadata(newTask(counterIds(), { finalize: false }), { secretFlag: true }),
        );
        expect(warnings).toHaveLength(2);
        expect(warnings[1]).toContain("secretFlag");
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it("never stores an empty goalKey: projection skips it, updates refuse it, the database rejects it", async () => {
      const { tasks, sql: raw } = await open(harness);
      const ids = counterIds();
      const blank = withRawMetadata(newTask(ids), { goalKey: "" });
      await tasks.add(A, blank);
      const stored = await tasks.get(A, blank.id);
      expect(stored).not.toBeNull();
      expect(stored?.metadata).not.toHaveProperty("goalKey");
      const spaces = withRawMetadata(newTask(ids), { goalKey: "   " });
      await tasks.add(A, spaces);
      expect((await tasks.get(A, spaces.id))?.metadata).not.toHaveProperty("goalKey");

      const kept = newTask(ids);
      await tasks.add(A, kept);
      const emptied = withRawMetadata(kept, { goalKey: "" });
      const refused = await rejection(tasks.update(A, emptied));
      expect(isSolError(refused) && refused.code).toBe("invalid_input");
      const patched = await tasks.updateTaskMetadata(A, kept.id, { goalKey: "" }, { nowMs: NOW + 5 });
      expect(patched?.ok && patched.value.metadata.goalKey).toBe("collect:oak_log");

      const direct = await rejection(
        sql`update tasks set goal_key = '' where task_id = ${kept.id}`.execute(raw.db),
      );
      expect(direct).toBeInstanceOf(Error);
      const rows = await sql<{
        n: number | string;
      }>`select count(*) as n from tasks where goal_key = ''`.execute(raw.db);
      expect(Number(rows.rows[0]?.n)).toBe(0);
    });

    it("keeps origin and createdAt immutable through update and updateTaskMetadata", async () => {
      const { tasks } = await open(harness);
      const task = newTask(counterIds());
      await tasks.add(A, task);
      const forged = {
        ...task,
        status: "active" as const,
        metadata: {
          ...task.metadata,
          createdAt: NOW + 99_000,
          updatedAt: NOW + 10,
          origin: { kind: "api" as const, stampedAtMs: NOW + 10 },
        },
      };
      expect(await tasks.update(A, forged)).toBe(true);
      const afterUpdate = await tasks.get(A, task.id);
      expect(afterUpdate?.status).toBe("active");
      expect(afterUpdate?.metadata.origin).toEqual(task.metadata.origin);
      expect(afterUpdate?.metadata.createdAt).toBe(NOW);

      const patched = await tasks.updateTaskMetadata(
        A,
        task.id,
        { origin: { kind: "system", stampedAtMs: 1 }, blockedReason: "waiting" },
        { nowMs: NOW + 20 },
      );
      expect(patched?.ok).toBe(true);
      const afterPatch = await tasks.get(A, task.id);
      expect(afterPatch?.metadata.origin).toEqual(task.metadata.origin);
      expect(afterPatch?.metadata.blockedReason).toBe("waiting");
      expect(afterPatch?.metadata.updatedAt).toBe(NOW + 20);
      expect(await tasks.updateTaskMetadata(A, "missing", {}, { nowMs: NOW })).toBeNull();
      const bad = await tasks.updateTaskMetadata(A, task.id, { retryCount: -1 }, { nowMs: NOW });
      expect(bad?.ok).toBe(false);
    });

    it("stamps origin once on a task stored unfinalized, and never again", async () => {
      const { tasks } = await open(harness);
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

    // `setTask` is the agency contract's name for `add`: both must behave alike.
    for (const method of ["add", "setTask"] as const) {
      it(`${method} warns on a task stored without origin only under PLANNING_STRICT_FINALIZE and without allowUnfinalized`, async () => {
        const warnings: string[] = [];
        const { tasks } = await open(harness, { strictFinalize: true, warn: (m) => warnings.push(m) });
        const ids = counterIds();
        const bare = newTask(ids, { finalize: false });
        await tasks[method](A, bare);
        expect(await tasks.get(A, bare.id)).toEqual(bare);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain("PLANNING_STRICT_FINALIZE");
        expect(warnings[0]).toContain(bare.id);
        await tasks[method](A, newTask(ids, { finalize: false }), { allowUnfinalized: true });
        await tasks[method](A, newTask(ids));
        expect(warnings).toHaveLength(1);
        const duplicate = await rejection(tasks[method](A, bare));
        expect(isSolError(duplicate) && duplicate.code).toBe("conflict");

        const lax: string[] = [];
        const relaxed = await open(harness, { strictFinalize: false, warn: (m) => lax.push(m) });
        await relaxed.tasks[method](B, newTask(counterIds(), { finalize: false }));
        expect(lax).toEqual([]);
      });
    }

    it("compare-and-set: of two concurrent claims of one pending task exactly one wins", async () => {
      const { tasks } = await open(harness);
      const task = newTask(counterIds());
      await tasks.add(A, task);
      const claim = (solver: string) =>
        tasks.updateIfStatus(
          A,
          { ...task, status: "active", metadata: { ...task.metadata, solver, updatedAt: NOW + 1 } },
          ["pending"],
        );
      const results = await Promise.all([claim("one"), claim("two")]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await tasks.get(A, task.id))?.status).toBe("active");
      expect(await tasks.updateIfStatus(A, task, [])).toBe(false);
    });

    it("lists goal holders: open tasks that are young or have progress, plus those created since", async () => {
      const { tasks } = await open(harness);
      const ids = counterIds();
      const stuck = newTask(ids, { nowMs: NOW - STUCK_TIMEOUT_MS });
      const young = newTask(ids, { nowMs: NOW - STUCK_TIMEOUT_MS + 1 });
      const working = {
        ...newTask(ids, { nowMs: NOW - 10 * STUCK_TIMEOUT_MS }),
        status: "active" as const,
        progress: 0.5,
      };
      const oldDone = {
        ...newTask(ids, { nowMs: NOW - 10 * STUCK_TIMEOUT_MS }),
        status: "completed" as const,
      };
      const recentDone = { ...newTask(ids, { nowMs: NOW - 1000 }), status: "failed" as const };
      for (const t of [stuck, young, working, oldDone, recentDone]) await tasks.add(A, t);
      const listed = async (window: { nowMs: number; sinceMs?: number }) =>
        (await tasks.listGoalHolders(A, window)).map((t) => t.id);
      expect(await listed({ nowMs: NOW })).toEqual([young.id, working.id]);
      expect(await listed({ nowMs: NOW, sinceMs: NOW - 60_000 })).toEqual([
        young.id,
        working.id,
        recentDone.id,
      ]);
      expect(await listed({ nowMs: NOW + 1 })).toEqual([working.id]);
      expect(await tasks.listGoalHolders(B, { nowMs: NOW })).toEqual([]);
      const refused = await rejection(tasks.listGoalHolders(A, { nowMs: Number.NaN }));
      expect(isSolError(refused) && refused.code).toBe("invalid_input");
    });

    it("lists open tasks plus recent ones; another tenant sees and changes nothing", async () => {
      const { tasks } = await open(harness);
      const ids = counterIds();
      const old = newTask(ids, { nowMs: NOW - 600_000 });
      const oldDone = { ...newTask(ids, { nowMs: NOW - 600_000 }), status: "completed" as const };
      const recentDone = { ...newTask(ids, { nowMs: NOW - 1000 }), status: "failed" as const };
      for (const t of [old, oldDone, recentDone]) await tasks.add(A, t);
      expect((await tasks.listOpenOrSince(A, NOW - 60_000)).map((t) => t.id)).toEqual([
        old.id,
        recentDone.id,
      ]);

      expect(await tasks.get(B, old.id)).toBeNull();
      expect(await tasks.listByStatus(B)).toEqual([]);
      expect(await tasks.findByGoalKey(B, "collect:oak_log")).toEqual([]);
      expect(await tasks.update(B, { ...old, status: "active" })).toBe(false);
      expect(await tasks.updateTaskMetadata(B, old.id, {}, { nowMs: NOW })).toBeNull();
      expect((await tasks.get(A, old.id))?.status).toBe("pending");
      expect(await tasks.count(B)).toBe(0);
    });

    it("property: whatever metadata comes in, stored keys stay within the allowlist and goalKey is never empty", async () => {
      const { tasks } = await open(harness);
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
}
