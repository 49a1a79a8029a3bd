import { ErrorBody, ReminderList, type ReminderView } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ReminderRecord } from "../../store/index.js";
import type { AppDeps } from "../app-deps.js";

const ListQuery = z.object({ thread_id: z.string().min(1).max(128).optional() }).strict();

function toView(r: ReminderRecord): ReminderView {
  return {
    reminder_id: r.reminderId,
    title: r.title,
    due: r.due,
    due_at: r.dueAt,
    thread_id: r.threadId,
    action_id: r.actionId,
    created_at: r.createdAt,
  };
}

/** `GET /v1/reminders[?thread_id=]`: the reminders approved actions created, oldest first. */
export function registerReminderRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/v1/reminders",
    {
      schema: {
        querystring: ListQuery,
        response: { 200: ReminderList, 400: ErrorBody },
      },
    },
    async (req) => {
      const list = await deps.reminders.list(req.tenantId, {
        ...(req.query.thread_id ? { threadId: req.query.thread_id } : {}),
      });
      return { reminders: list.map(toView) };
    },
  );
}
