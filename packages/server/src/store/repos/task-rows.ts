import { SolError, Task, type TaskOrigin } from "@solserver/core";
import type { Insertable, Selectable } from "kysely";
import { assertStorableText, decodeJson, encodeJson } from "../sql/columns.js";
import type { StoreDialect, TasksTable } from "../sql/schema.js";

/** The columns a task row is written with (everything but the surrogate key). */
export type TaskRowValues = Omit<Insertable<TasksTable>, "id">;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A validated task as row values. `origin` and `createdAt` go to their own columns and are left
 * out of the metadata JSON, so an update that never writes those columns cannot change them.
 */
export function taskToRow(tenantId: string, task: Task): TaskRowValues {
  assertStorableText(tenantId, "tenantId");
  assertStorableText(task.id, "id");
  assertStorableText(task.type, "type");
  assertStorableText(task.title, "title");
  if (task.description !== undefined) assertStorableText(task.description, "description");
  const { origin, createdAt, ...metadata } = task.metadata;
  return {
    tenant_id: tenantId,
    task_id: task.id,
    type: task.type,
    title: task.title,
    description: task.description ?? null,
    status: task.status,
    priority: task.priority,
    progress: task.progress,
    goal_key: task.metadata.goalKey ?? null,
    parameters: encodeJson(task.parameters, "parameters"),
    metadata: encodeJson(metadata, "metadata"),
    origin: origin === undefined ? null : encodeJson(origin, "origin"),
    created_at: iso(createdAt),
    updated_at: iso(task.metadata.updatedAt),
  };
}

/** A stored row back as a Task; a row that no longer parses is an internal error, not bad input. */
export function rowToTask(dialect: StoreDialect, row: Selectable<TasksTable>): Task {
  const metadata = decodeJson(dialect, row.metadata) as Record<string, unknown>;
  const origin = row.origin === null ? undefined : (decodeJson(dialect, row.origin) as TaskOrigin);
  const parsed = Task.safeParse({
    id: row.task_id,
    type: row.type,
    title: row.title,
    ...(row.description === null ? {} : { description: row.description }),
    status: row.status,
    priority: Number(row.priority),
    progress: Number(row.progress),
    parameters: decodeJson(dialect, row.parameters),
    metadata: {
      ...metadata,
      createdAt: Date.parse(row.created_at),
      ...(origin === undefined ? {} : { origin }),
    },
  });
  if (!parsed.success) {
    throw new SolError("internal", `stored task ${row.task_id} does not match the Task contract`, {
      details: parsed.error.issues,
    });
  }
  return parsed.data;
}
