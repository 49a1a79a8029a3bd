import {
  applyMetadataPatch,
  buildNewTask,
  finalizeNewTask,
  PROPAGATED_META_KEYS,
  projectIncomingMetadata,
  REBUILT_META_KEYS,
  strictFinalizeWarning,
  Task,
  type TaskMetadata,
} from "@solserver/core";
import { describe, expect, it, vi } from "vitest";
import { counterIds } from "./fixtures.js";

const T0 = 1_700_000_000_000;

function session(isProduction = false) {
  const warnings: string[] = [];
  return {
    warnings,
    options: { warn: (m: string) => warnings.push(m), isProduction, warnedKeys: new Set<string>() },
  };
}

function newTask(metadata?: unknown) {
  const r = buildNewTask(
    { type: "crafting", title: "Craft a table", metadata },
    { nowMs: T0, ids: counterIds() },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

// Compile-time invariant: an allowlist entry that is not a TaskMetadata key does not type-check.
// @ts-expect-error "notAKey" is not a key of TaskMetadata
const _badAllowlist = ["goalKey", "notAKey"] as const satisfies readonly (keyof TaskMetadata)[];
void _badAllowlist;

describe("metadata projection allowlist", () => {
  it("keeps only PROPAGATED_META_KEYS and drops everything else", () => {
    const { options } = session();
    const r = projectIncomingMetadata(
      { goalKey: "collect:oak_log", sourceThoughtId: "t1", secret: 1, origin: { kind: "api" } },
      options,
    );
    expect(r.metadata).toEqual({ goalKey: "collect:oak_log", sourceThoughtId: "t1" });
    expect(r.dropped).toEqual(["secret", "origin"]);
  });

  it("works without options: warns on the console once per key per process, never in production", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const r = projectIncomingMetadata({ goalKey: "collect:oak_log", zzUnlistedKey: 1 });
      expect(r.metadata).toEqual({ goalKey: "collect:oak_log" });
      expect(r.dropped).toEqual(["zzUnlistedKey"]);
      projectIncomingMetadata({ zzUnlistedKey: 2 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain("zzUnlistedKey");
      vi.stubEnv("NODE_ENV", "production");
      projectIncomingMetadata({ zzOtherKey: 1 });
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllEnvs();
      warn.mockRestore();
    }
  });

  it("ignores rebuilt keys without a warning", () => {
    const { options, warnings } = session();
    const r = projectIncomingMetadata({ createdAt: 1, tags: ["x"], category: "c", solver: "s" }, options);
    expect(r.metadata).toEqual({});
    expect(r.dropped).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("warns once per dropped key per session outside production", () => {
    const { options, warnings } = session();
    projectIncomingMetadata({ a: 1, b: 2 }, options);
    projectIncomingMetadata({ a: 3 }, options);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('"a"');
    expect(options.warnedKeys.has("a") && options.warnedKeys.has("b")).toBe(true);
  });

  it("never warns in production", () => {
    const { options, warnings } = session(true);
    const r = projectIncomingMetadata({ a: 1 }, options);
    expect(r.dropped).toEqual(["a"]);
    expect(warnings).toEqual([]);
  });

  it("coerces an empty goalKey to absent", () => {
    const { options } = session();
    for (const goalKey of ["", "   "]) {
      expect("goalKey" in projectIncomingMetadata({ goalKey }, options).metadata).toBe(false);
    }
  });

  it("drops propagated keys whose value is invalid", () => {
    const { options } = session();
    const r = projectIncomingMetadata(
      { goalKey: 7, extractedIntent: "dance", convertEligible: true },
      options,
    );
    expect(r.metadata).toEqual({ convertEligible: true });
    expect(r.invalid).toEqual(["goalKey", "extractedIntent"]);
  });

  it("propagated and rebuilt key sets are disjoint and exclude origin", () => {
    const rebuilt: readonly string[] = REBUILT_META_KEYS;
    for (const key of PROPAGATED_META_KEYS) expect(rebuilt).not.toContain(key);
    expect(PROPAGATED_META_KEYS as readonly string[]).not.toContain("origin");
  });
});

describe("buildNewTask", () => {
  it("rebuilds metadata from scratch and returns a valid pending task", () => {
    const task = newTask({ goalKey: "craft:crafting_table", createdAt: 5, retryCount: 9, evil: true });
    expect(Task.safeParse(task).success).toBe(true);
    expect(task).toMatchObject({ id: "task-1", status: "pending", progress: 0, type: "crafting" });
    expect(task.metadata).toEqual({
      goalKey: "craft:crafting_table",
      createdAt: T0,
      updatedAt: T0,
      retryCount: 0,
      maxRetries: 3,
      childTaskIds: [],
      tags: [],
      category: "crafting",
      solver: null,
    });
  });

  it("addTask drops empty-string goalKey (never reaches task.metadata)", () => {
    expect("goalKey" in newTask({ goalKey: "" }).metadata).toBe(false);
  });

  it("rejects invalid input with issues instead of throwing", () => {
    const r = buildNewTask({ type: "", title: "x" }, { nowMs: T0, ids: counterIds() });
    expect(r.ok).toBe(false);
  });

  it("does not set origin; finalizeNewTask stamps it", () => {
    const task = newTask();
    expect(task.metadata.origin).toBeUndefined();
    const done = finalizeNewTask(task, { kind: "thought", thoughtId: "th-1" }, { nowMs: T0 + 5 });
    expect(done.metadata.origin).toEqual({ kind: "thought", thoughtId: "th-1", stampedAtMs: T0 + 5 });
  });
});

describe("origin envelope", () => {
  it("is immutable: finalizing twice keeps the first origin", () => {
    const once = finalizeNewTask(newTask(), { kind: "api" }, { nowMs: T0 });
    const twice = finalizeNewTask(once, { kind: "system" }, { nowMs: T0 + 1 });
    expect(twice.metadata.origin).toEqual({ kind: "api", stampedAtMs: T0 });
  });

  it("applyMetadataPatch never overwrites origin", () => {
    const task = finalizeNewTask(newTask(), { kind: "api" }, { nowMs: T0 });
    const r = applyMetadataPatch(
      task,
      { origin: { kind: "system", stampedAtMs: 1 }, blockedReason: "no plan" },
      { nowMs: T0 + 10 },
    );
    expect(r.ok && r.value.metadata.origin).toEqual({ kind: "api", stampedAtMs: T0 });
    expect(r.ok && r.value.metadata.blockedReason).toBe("no plan");
    expect(r.ok && r.value.metadata.updatedAt).toBe(T0 + 10);
  });

  it("applyMetadataPatch cannot add an origin to an unfinalized task either", () => {
    const r = applyMetadataPatch(newTask(), { origin: { kind: "api", stampedAtMs: 1 } }, { nowMs: T0 });
    expect(r.ok && r.value.metadata.origin).toBeUndefined();
  });

  it("applyMetadataPatch ignores an empty goalKey, removes undefined keys and rejects bad values", () => {
    const task = newTask({ goalKey: "craft:table" });
    const kept = applyMetadataPatch(task, { goalKey: "", blockedReason: "x" }, { nowMs: T0 });
    expect(kept.ok && kept.value.metadata.goalKey).toBe("craft:table");
    const cleared = kept.ok
      ? applyMetadataPatch(kept.value, { blockedReason: undefined }, { nowMs: T0 })
      : kept;
    expect(cleared.ok && "blockedReason" in cleared.value.metadata).toBe(false);
    expect(applyMetadataPatch(task, { retryCount: -1 }, { nowMs: T0 }).ok).toBe(false);
    expect(applyMetadataPatch(task, { unknownKey: 1 }, { nowMs: T0 }).ok).toBe(false);
    expect(applyMetadataPatch(task, "nope", { nowMs: T0 }).ok).toBe(false);
  });
});

describe("PLANNING_STRICT_FINALIZE warning rule", () => {
  const unfinalized = newTask();
  const finalized = finalizeNewTask(newTask(), { kind: "api" }, { nowMs: T0 });
  it.each([
    [false, false, false, unfinalized],
    [true, false, true, unfinalized],
    [true, true, false, unfinalized],
    [true, false, false, finalized],
  ])("strict=%s allowUnfinalized=%s -> warns=%s", (strict, allowUnfinalized, warns, task) => {
    const message = strictFinalizeWarning(task, { strict, allowUnfinalized });
    expect(message !== null).toBe(warns);
    if (message !== null) expect(message).toContain(task.id);
  });
});
