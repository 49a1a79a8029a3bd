import { isSolError, STUCK_TIMEOUT_MS } from "@solserver/core";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { A, B, counterIds, NOW, newTask, open, rejection, withRawMetadata } from "./agency-task-fixtures.js";
import type { Harness } from "./harness.js";

/** The agency task store: projection, origin, goalKey, strict finalize, claims and goal holders. */
export function agencyTaskContract(harness: Harness): void {
  describe("agency task store", () => {
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
  });
}
