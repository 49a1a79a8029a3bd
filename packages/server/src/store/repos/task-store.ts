import {
  type AddTaskOptions,
  applyMetadataPatch,
  buildNewTask,
  issuesFromZod,
  type Result,
  SolError,
  STUCK_TIMEOUT_MS,
  strictFinalizeWarning,
  Task,
  type TaskStatus,
  type TaskStore,
  type TenantId,
} from "@solserver/core";
import { randomIds } from "../../util/ids.js";
import { isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isCheckViolation, isUniqueViolation } from "../sql/db-errors.js";
import { projectTaskForStore } from "./task-projection.js";
import { rowToTask, taskToRow } from "./task-rows.js";

/** Options of the SQL task store; validated once, then frozen. */
export interface TaskStoreOptions {
  /** Production silences the dropped-metadata-key warnings. Default: `NODE_ENV === "production"`. */
  readonly isProduction?: boolean;
  /** Warn when a task is stored without `origin`. Default: `PLANNING_STRICT_FINALIZE === "1"`. */
  readonly strictFinalize?: boolean;
  /** Where warnings go; default `console.warn`. */
  readonly warn?: (message: string) => void;
}

/** Options of `addTask`: plain data, so they cross to a store on its own thread too. */
export interface NewTaskOptions extends AddTaskOptions {
  /** The new task's id; default a fresh `task_...` id. */
  readonly taskId?: string;
  /** Creation time in ms; default the store's clock. */
  readonly nowMs?: number;
}

/** An epoch-ms time as the ISO text `created_at` holds (clamped to what a Date can show). */
function isoAt(ms: number): string {
  return new Date(Math.max(-8.64e15, Math.min(8.64e15, ms))).toISOString();
}

/** What `listGoalHolders` reads: the holders at `nowMs`, and any task created at or after `sinceMs`. */
export interface GoalHolderWindow {
  readonly nowMs: number;
  readonly sinceMs?: number;
}

/** TaskStore over SQL, plus the atomic writes the agency service and executors need. */
export interface SqlTaskStore extends TaskStore {
  /**
   * The agency contract's `addTask()`: builds a pending task from caller data with its metadata rebuilt
   * from scratch (`buildNewTask`: the rebuilt keys are set here, only PROPAGATED_META_KEYS survive, an
   * empty goalKey is dropped), stores it and returns it. `origin` is not set: stamp it with
   * `finalizeNewTask()` and `update`. Invalid data is `invalid_input` and stores nothing.
   */
  addTask(tenantId: TenantId, taskData: unknown, options?: NewTaskOptions): Promise<Task>;
  /** The agency contract's `TaskStore.setTask()`: stores a new task, exactly as `add` does. */
  setTask(tenantId: TenantId, task: Task, options?: AddTaskOptions): Promise<void>;
  /** Like `update`, but only while the stored status is one of `expected` (compare-and-set). */
  updateIfStatus(tenantId: TenantId, task: Task, expected: readonly TaskStatus[]): Promise<boolean>;
  /**
   * Applies a metadata patch (`applyMetadataPatch`: origin and createdAt never change). Null when
   * the task does not exist; a failed result when the patched metadata is invalid.
   */
  updateTaskMetadata(
    tenantId: TenantId,
    taskId: string,
    patch: unknown,
    options: { readonly nowMs: number },
  ): Promise<Result<Task> | null>;
  /** Open (pending/active) tasks plus every task created at or after `sinceMs`, oldest first. */
  listOpenOrSince(tenantId: TenantId, sinceMs: number): Promise<Task[]>;
  /**
   * The tasks that can hold a goal at `nowMs` (`isGoalSuppressingTask`: open, and with progress or
   * younger than STUCK_TIMEOUT_MS) plus every task created at or after `sinceMs`, oldest first. Stuck
   * tasks are left out: they hold nothing, and they pile up for good while no executor claims them.
   */
  listGoalHolders(tenantId: TenantId, window: GoalHolderWindow): Promise<Task[]>;
  count(tenantId: TenantId): Promise<number>;
}

// Read when a store is created, not at import: the agency contract ties both behaviours to the
// environment, so a store built without the server's config still follows it.
function defaults() {
  return {
    isProduction: process.env.NODE_ENV === "production",
    strictFinalize: process.env.PLANNING_STRICT_FINALIZE === "1",
    warn: (m: string) => console.warn(m),
  };
}

function invalidTask(issues: unknown): SolError {
  return new SolError("invalid_input", "The task does not match the Task contract.", { details: issues });
}

function parseTask(task: unknown): Task {
  const parsed = Task.safeParse(task);
  if (!parsed.success) throw invalidTask(issuesFromZod(parsed.error));
  return parsed.data;
}

/**
 * The agency task store. `add` is the store boundary: metadata is projected through the
 * allowlist (`projectTaskForStore`), an empty goalKey never reaches a row (projection, Task
 * schema and a CHECK constraint), and with `strictFinalize` a task without origin (and without
 * `allowUnfinalized`) is warned about. Updates never change `origin` once set, nor `createdAt`.
 */
export function createTaskStore(ctx: StoreContext, options: TaskStoreOptions = {}): SqlTaskStore {
  const settings = Object.freeze({ ...defaults(), ...options });
  const warnedKeys = new Set<string>();
  const { db } = ctx;

  async function write(tenantId: TenantId, raw: Task, expected?: readonly TaskStatus[]): Promise<boolean> {
    const task = parseTask(raw);
    const row = taskToRow(tenantId, task);
    let query = db
      .updateTable("tasks")
      .set((eb) => ({
        type: row.type,
        title: row.title,
        description: row.description,
        status: row.status,
        priority: row.priority,
        progress: row.progress,
        goal_key: row.goal_key,
        parameters: row.parameters,
        metadata: row.metadata,
        updated_at: row.updated_at,
        // Write-once: a stored origin always wins over whatever the caller sends.
        ...(row.origin === null || row.origin === undefined
          ? {}
          : { origin: eb.fn.coalesce("origin", eb.val(row.origin)) }),
      }))
      .where("tenant_id", "=", tenantId)
      .where("task_id", "=", task.id);
    if (expected !== undefined) {
      if (expected.length === 0) return false;
      query = query.where("status", "in", [...expected]);
    }
    try {
      const result = await query.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    } catch (error) {
      if (isCheckViolation(error)) throw invalidTask(String(error));
      throw error;
    }
  }

  const store: SqlTaskStore = {
    async add(tenantId: TenantId, input: Task, addOptions: AddTaskOptions = {}) {
      const projected = projectTaskForStore(input, {
        isProduction: settings.isProduction,
        warn: settings.warn,
        warnedKeys,
      });
      if (!projected.ok) throw invalidTask(projected.issues);
      const warning = strictFinalizeWarning(projected.value, {
        strict: settings.strictFinalize,
        ...(addOptions.allowUnfinalized === undefined
          ? {}
          : { allowUnfinalized: addOptions.allowUnfinalized }),
      });
      if (warning !== null) settings.warn(warning);
      try {
        await db.insertInto("tasks").values(taskToRow(tenantId, projected.value)).execute();
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new SolError("conflict", `A task with id ${projected.value.id} already exists.`);
        }
        if (isCheckViolation(error)) throw invalidTask(String(error));
        throw error;
      }
    },

    setTask: (tenantId, task, addOptions) => store.add(tenantId, task, addOptions),

    async addTask(tenantId, taskData, newOptions = {}) {
      const { taskId, nowMs, ...addOptions } = newOptions;
      const built = buildNewTask(taskData, {
        nowMs: nowMs ?? Date.parse(ctx.nowIso()),
        ids: (prefix) => taskId ?? randomIds(prefix),
        projection: { isProduction: settings.isProduction, warn: settings.warn, warnedKeys },
      });
      if (!built.ok) throw invalidTask(built.issues);
      await store.add(tenantId, built.value, addOptions);
      return built.value;
    },

    async get(tenantId, taskId) {
      if (!isStorableKey(tenantId, taskId)) return null;
      const row = await db
        .selectFrom("tasks")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("task_id", "=", taskId)
        .executeTakeFirst();
      return row === undefined ? null : rowToTask(ctx.dialect, row);
    },

    async listByStatus(tenantId, statuses, page = {}) {
      const { afterTaskId, limit } = page;
      if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new SolError("invalid_input", `limit must be a positive integer, got ${limit}`);
      }
      if (!isStorableKey(tenantId, afterTaskId)) return [];
      let query = db.selectFrom("tasks").selectAll().where("tenant_id", "=", tenantId);
      if (statuses !== undefined) {
        if (statuses.length === 0) return [];
        query = query.where("status", "in", [...statuses]);
      }
      if (afterTaskId !== undefined) {
        // Ordered by row id: the page goes on after the row of that task (none: an empty page).
        query = query.where("id", ">", (eb) =>
          eb
            .selectFrom("tasks as after")
            .select("after.id")
            .where("after.tenant_id", "=", tenantId)
            .where("after.task_id", "=", afterTaskId),
        );
      }
      query = query.orderBy("id");
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((row) => rowToTask(ctx.dialect, row));
    },

    update: (tenantId, task) => write(tenantId, task),
    updateIfStatus: (tenantId, task, expected) => write(tenantId, task, expected),

    async findByGoalKey(tenantId, goalKey, statuses) {
      if (goalKey === "" || !isStorableKey(tenantId, goalKey)) return [];
      let query = db
        .selectFrom("tasks")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("goal_key", "=", goalKey);
      if (statuses !== undefined) {
        if (statuses.length === 0) return [];
        query = query.where("status", "in", [...statuses]);
      }
      const rows = await query.orderBy("id").execute();
      return rows.map((row) => rowToTask(ctx.dialect, row));
    },

    async updateTaskMetadata(tenantId, taskId, patch, { nowMs }) {
      const current = await store.get(tenantId, taskId);
      if (current === null) return null;
      const patched = applyMetadataPatch(current, patch, { nowMs });
      if (!patched.ok) return patched;
      const written = await write(tenantId, patched.value);
      if (!written) return null;
      return { ok: true, value: (await store.get(tenantId, taskId)) ?? patched.value };
    },

    async listOpenOrSince(tenantId, sinceMs) {
      if (!isStorableKey(tenantId)) return [];
      const since = new Date(Math.max(0, sinceMs)).toISOString();
      const rows = await db
        .selectFrom("tasks")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where((eb) => eb.or([eb("status", "in", ["pending", "active"]), eb("created_at", ">=", since)]))
        .orderBy("id")
        .execute();
      return rows.map((row) => rowToTask(ctx.dialect, row));
    },

    async listGoalHolders(tenantId, { nowMs, sinceMs }) {
      if (!Number.isFinite(nowMs) || (sinceMs !== undefined && !Number.isFinite(sinceMs))) {
        throw new SolError("invalid_input", "nowMs and sinceMs must be finite numbers (epoch ms)");
      }
      if (!isStorableKey(tenantId)) return [];
      // Not stuck: age < STUCK_TIMEOUT_MS, i.e. created strictly after nowMs - STUCK_TIMEOUT_MS.
      const youngAfter = isoAt(nowMs - STUCK_TIMEOUT_MS);
      const rows = await db
        .selectFrom("tasks")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where((eb) => {
          const holding = eb.and([
            eb("status", "in", ["pending", "active"]),
            eb.or([eb("progress", ">", 0), eb("created_at", ">", youngAfter)]),
          ]);
          return sinceMs === undefined ? holding : eb.or([holding, eb("created_at", ">=", isoAt(sinceMs))]);
        })
        .orderBy("id")
        .execute();
      return rows.map((row) => rowToTask(ctx.dialect, row));
    },

    async count(tenantId) {
      if (!isStorableKey(tenantId)) return 0;
      const row = await db
        .selectFrom("tasks")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("tenant_id", "=", tenantId)
        .executeTakeFirst();
      return toNumber(row?.n ?? 0);
    },
  };
  return store;
}
