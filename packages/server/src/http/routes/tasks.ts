import { ErrorBody, SolError, Task, TaskStatus } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AgencyService } from "../../agency/index.js";
import { queryInt } from "../query-int.js";

/**
 * Most tasks one `GET /v1/tasks` answers with (and its default `limit`). Tasks are never deleted, so
 * a tenant's list only grows: it is read in pages.
 */
export const TASK_PAGE_LIMIT = 1000;

const STATUS_LIST = new RegExp(`^(${TaskStatus.options.join("|")})(,(${TaskStatus.options.join("|")}))*$`);
const StatusList = z.string().regex(STATUS_LIST, "status must be a comma-separated list of task statuses");
const Params = z.object({ taskId: z.string().min(1).max(128) });
const TaskReply = z.object({ task: Task });
const ClaimBody = z.object({ executor: z.string().min(1).max(64).optional() }).strict();
const ProgressBody = z.object({ progress: z.number().min(0).max(1) }).strict();
const FailBody = z.object({ reason: z.string().min(1).max(200).optional() }).strict();
const EmptyBody = z.object({}).strict();
const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Task routes: `GET /v1/tasks?status=a,b[&limit=&after=]` (also `?status=a&status=b`; oldest first, in pages of at most
 * TASK_PAGE_LIMIT; `nextAfter` names where the next page starts) and the executor path
 * `POST /v1/tasks/:taskId/claim` (pending -> active), `/progress`, `/complete` (active -> completed),
 * `/fail` (pending|active -> failed). A move the state machine does not allow is 409 `invalid_transition`.
 */
export function registerTaskRoutes(app: FastifyInstance, agency: AgencyService): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    "/v1/tasks",
    {
      schema: {
        summary: "List tasks, optionally only those in the given statuses (comma-separated)",
        querystring: z.object({
          // `?status=` (empty) lists every task, like leaving it out; a repeated `status` is a list too.
          status: z
            .union([z.literal(""), StatusList, z.array(StatusList).min(1).max(TaskStatus.options.length)])
            .optional(),
          limit: queryInt(1, TASK_PAGE_LIMIT).default(TASK_PAGE_LIMIT),
          // The `nextAfter` of the previous page: the list goes on after that task.
          after: z.string().min(1).max(128).optional(),
        }),
        response: {
          200: z.object({ tasks: z.array(Task), nextAfter: z.string().optional() }),
          400: ErrorBody,
        },
      },
    },
    async (req) => {
      const { status: raw, limit, after } = req.query;
      const joined = Array.isArray(raw) ? raw.join(",") : raw;
      const statuses =
        joined === undefined || joined === "" ? undefined : ([...new Set(joined.split(","))] as TaskStatus[]);
      // One more than the page, to know whether another page follows.
      const tasks = await agency.listTasks(req.tenantId, statuses, {
        ...(after === undefined ? {} : { afterTaskId: after }),
        limit: limit + 1,
      });
      const more = tasks.length > limit;
      if (more) tasks.length = limit;
      const last = tasks.at(-1);
      return { tasks, ...(more && last ? { nextAfter: last.id } : {}) };
    },
  );

  typed.get(
    "/v1/tasks/:taskId",
    { schema: { params: Params, response: { 200: Task, 404: ErrorBody } } },
    async (req) => {
      const task = await agency.getTask(req.tenantId, req.params.taskId);
      if (task === null) throw new SolError("not_found", `No task ${req.params.taskId}.`);
      return task;
    },
  );

  typed.post(
    "/v1/tasks/:taskId/claim",
    { schema: { params: Params, body: ClaimBody.nullish(), response: { 200: TaskReply, ...errors } } },
    async (req) => ({ task: await agency.claimTask(req.tenantId, req.params.taskId, req.body?.executor) }),
  );

  typed.post(
    "/v1/tasks/:taskId/progress",
    { schema: { params: Params, body: ProgressBody, response: { 200: TaskReply, ...errors } } },
    async (req) => ({
      task: await agency.reportProgress(req.tenantId, req.params.taskId, req.body.progress),
    }),
  );

  typed.post(
    "/v1/tasks/:taskId/complete",
    { schema: { params: Params, body: EmptyBody.nullish(), response: { 200: TaskReply, ...errors } } },
    async (req) => ({ task: await agency.completeTask(req.tenantId, req.params.taskId) }),
  );

  typed.post(
    "/v1/tasks/:taskId/fail",
    { schema: { params: Params, body: FailBody.nullish(), response: { 200: TaskReply, ...errors } } },
    async (req) => ({ task: await agency.failTask(req.tenantId, req.params.taskId, req.body?.reason) }),
  );
}
