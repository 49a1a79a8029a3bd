import type { Task, TaskStatus } from "../agency/task.js";
import type { TenantId } from "./tenant.js";

/** One page of a task list: the tasks after `afterTaskId` in list order, at most `limit`. */
export interface TaskPage {
  readonly afterTaskId?: string;
  readonly limit?: number;
}

export interface AddTaskOptions {
  /** Store a task without `origin` on purpose (silences the PLANNING_STRICT_FINALIZE warning). */
  readonly allowUnfinalized?: boolean;
}

/**
 * Persistence for agency tasks, implemented by the server (SQL). Every call is scoped to a tenant;
 * another tenant's tasks are invisible. Implementations should call `strictFinalizeWarning()`
 * in `add`.
 */
export interface TaskStore {
  add(tenantId: TenantId, task: Task, options?: AddTaskOptions): Promise<void>;
  get(tenantId: TenantId, taskId: string): Promise<Task | null>;
  /**
   * Tasks in any of `statuses` (all tasks when omitted), oldest first: all of them, or one page
   * (tasks are never deleted, so a tenant's list only grows). A page after an unknown task is empty.
   */
  listByStatus(tenantId: TenantId, statuses?: readonly TaskStatus[], page?: TaskPage): Promise<Task[]>;
  /** Replaces the stored task with the same id; false when there is none. */
  update(tenantId: TenantId, task: Task): Promise<boolean>;
  /** Tasks whose `metadata.goalKey` equals `goalKey`, optionally limited to `statuses`. */
  findByGoalKey(tenantId: TenantId, goalKey: string, statuses?: readonly TaskStatus[]): Promise<Task[]>;
}
