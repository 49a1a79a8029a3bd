import { Task } from "../../agency/task.js";
import { strictFinalizeWarning } from "../../agency/task-factory.js";
import { SolError } from "../../errors.js";
import { issuesFromZod } from "../../validation/zod-issues.js";
import { projectTaskForStore } from "../task-projection.js";
import type { TaskStore } from "../task-store.js";
import type { TenantId } from "../tenant.js";
import { assertStorableJson, assertStorableKeys, isStorableKey, jsonCopy, keyOf } from "./storable.js";

/** Options of the in-memory task store (the SQL store reads their defaults from the environment). */
export interface InMemoryTaskStoreOptions {
  /** Production silences the dropped-metadata-key warnings; default false. */
  readonly isProduction?: boolean;
  /** Warn when a task is stored without `origin`; default false. */
  readonly strictFinalize?: boolean;
  /** Where warnings go; default none. */
  readonly warn?: (message: string) => void;
}

function invalidTask(issues: unknown): SolError {
  return new SolError("invalid_input", "The task does not match the Task contract.", { details: issues });
}

function parseTask(task: unknown, tenantId: TenantId): Task {
  const parsed = Task.safeParse(task);
  if (!parsed.success) throw invalidTask(issuesFromZod(parsed.error));
  return checkStorable(parsed.data, tenantId);
}

function checkStorable(value: Task, tenantId: TenantId): Task {
  assertStorableKeys({
    tenantId,
    id: value.id,
    type: value.type,
    title: value.title,
    description: value.description,
  });
  assertStorableJson(value.parameters, "parameters");
  assertStorableJson(value.metadata, "metadata");
  return value;
}

/** The reference TaskStore, with the count the SQL task store also has. */
export interface InMemoryTaskStore extends TaskStore {
  count(tenantId: TenantId): Promise<number>;
}

/**
 * The reference TaskStore: tasks in insertion order per tenant. Updates never change a stored
 * `origin` or `createdAt`, as the SQL store's write-once columns do.
 */
export function createInMemoryTaskStore(options: InMemoryTaskStoreOptions = {}): InMemoryTaskStore {
  const rows = new Map<string, { readonly tenantId: TenantId; task: Task }>();
  const warnedKeys = new Set<string>();
  const own = (tenantId: TenantId) => [...rows.values()].filter((row) => row.tenantId === tenantId);
  const copy = (task: Task): Task => Task.parse(jsonCopy(task));
  return {
    async add(tenantId, input, addOptions = {}) {
      // The store boundary: metadata goes through the same allowlist as the SQL store's.
      const projected = projectTaskForStore(input, {
        isProduction: options.isProduction === true,
        warn: (message) => options.warn?.(message),
        warnedKeys,
      });
      if (!projected.ok) throw invalidTask(projected.issues);
      const task = checkStorable(projected.value, tenantId);
      const warning = strictFinalizeWarning(task, {
        strict: options.strictFinalize === true,
        ...(addOptions.allowUnfinalized === undefined
          ? {}
          : { allowUnfinalized: addOptions.allowUnfinalized }),
      });
      if (warning !== null) options.warn?.(warning);
      const key = keyOf(tenantId, task.id);
      if (rows.has(key)) throw new SolError("conflict", `A task with id ${task.id} already exists.`);
      rows.set(key, { tenantId, task: jsonCopy(task) });
    },
    async get(tenantId, taskId) {
      const row = isStorableKey(tenantId, taskId) ? rows.get(keyOf(tenantId, taskId)) : undefined;
      return row === undefined ? null : copy(row.task);
    },
    async listByStatus(tenantId, statuses, page = {}) {
      const { afterTaskId, limit } = page;
      if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new SolError("invalid_input", `limit must be a positive integer, got ${limit}`);
      }
      const all = own(tenantId);
      const start = afterTaskId === undefined ? 0 : all.findIndex((row) => row.task.id === afterTaskId) + 1;
      if (afterTaskId !== undefined && start === 0) return [];
      const found = all
        .slice(start)
        .filter((row) => statuses === undefined || statuses.includes(row.task.status))
        .map((row) => copy(row.task));
      return found.slice(0, limit ?? found.length);
    },
    async update(tenantId, input) {
      const task = parseTask(input, tenantId);
      const row = rows.get(keyOf(tenantId, task.id));
      if (row === undefined) return false;
      const { origin, createdAt } = row.task.metadata;
      row.task = jsonCopy({
        ...task,
        metadata: { ...task.metadata, createdAt, ...(origin === undefined ? {} : { origin }) },
      });
      return true;
    },
    async findByGoalKey(tenantId, goalKey, statuses) {
      if (goalKey === "") return [];
      return own(tenantId)
        .filter((row) => row.task.metadata.goalKey === goalKey)
        .filter((row) => statuses === undefined || statuses.includes(row.task.status))
        .map((row) => copy(row.task));
    },
    async count(tenantId) {
      return own(tenantId).length;
    },
  };
}
