import { isSolError, SolError, type Task, type TaskStatus } from "@solserver/core";
import type { AgencyService } from "@solserver/server";

/** What an executor needs from the task store: list, claim, progress, complete, fail. */
export interface ExecutorTaskApi {
  list(statuses: readonly TaskStatus[]): Promise<Task[]>;
  /** The claimed task, or null when it was no longer pending (another executor won). */
  claim(taskId: string, executor: string): Promise<Task | null>;
  progress(taskId: string, progress: number): Promise<void>;
  complete(taskId: string): Promise<void>;
  fail(taskId: string, reason: string): Promise<void>;
}

/** The task API over HTTP (`/v1/tasks...`), e.g. for an executor in another process. */
export function createHttpTaskApi(
  baseUrl: string,
  options: { readonly headers?: Readonly<Record<string, string>> } = {},
): ExecutorTaskApi {
  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: { ...options.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json: unknown = text ? JSON.parse(text) : undefined;
    return { status: res.status, json };
  }
  async function expectOk(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await call(method, path, body);
    if (res.status !== 200) {
      throw new SolError(
        "unavailable",
        `${method} ${path} answered ${res.status}: ${JSON.stringify(res.json)}`,
      );
    }
    return res.json;
  }
  const path = (id: string, verb: string) => `/v1/tasks/${encodeURIComponent(id)}/${verb}`;
  return {
    async list(statuses) {
      const json = (await expectOk("GET", `/v1/tasks?status=${statuses.join(",")}`)) as { tasks: Task[] };
      return json.tasks;
    },
    async claim(taskId, executor) {
      const res = await call("POST", path(taskId, "claim"), { executor });
      if (res.status === 409) return null;
      if (res.status !== 200) throw new SolError("unavailable", `claim answered ${res.status}`);
      return (res.json as { task: Task }).task;
    },
    progress: async (taskId, progress) =>
      void (await expectOk("POST", path(taskId, "progress"), { progress })),
    complete: async (taskId) => void (await expectOk("POST", path(taskId, "complete"), {})),
    fail: async (taskId, reason) =>
      void (await expectOk("POST", path(taskId, "fail"), { reason: reason.slice(0, 200) })),
  };
}

/** The task API straight on an in-process agency service, for one tenant. */
export function createServiceTaskApi(agency: AgencyService, tenantId: string): ExecutorTaskApi {
  return {
    list: (statuses) => agency.listTasks(tenantId, statuses),
    async claim(taskId, executor) {
      try {
        return await agency.claimTask(tenantId, taskId, executor);
      } catch (error) {
        if (isSolError(error) && error.code === "invalid_transition") return null;
        throw error;
      }
    },
    progress: async (taskId, progress) => void (await agency.reportProgress(tenantId, taskId, progress)),
    complete: async (taskId) => void (await agency.completeTask(tenantId, taskId)),
    fail: async (taskId, reason) => void (await agency.failTask(tenantId, taskId, reason.slice(0, 200))),
  };
}
