import { CalendarEventList, type CalendarEventView, ErrorBody } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { renderIcs } from "../../actions/index.js";
import type { CalendarEventRecord } from "../../store/index.js";
import type { AppDeps } from "../app-deps.js";

const ListQuery = z.object({ thread_id: z.string().min(1).max(128).optional() }).strict();

function toView(e: CalendarEventRecord): CalendarEventView {
  return {
    event_id: e.eventId,
    title: e.title,
    start: e.start,
    end: e.end,
    location: e.location,
    thread_id: e.threadId,
    action_id: e.actionId,
    created_at: e.createdAt,
  };
}

/** `GET /v1/calendar/events` (JSON) and `GET /v1/calendar/events.ics` (iCalendar) of a tenant's events. */
export function registerCalendarRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const list = (tenantId: string, threadId: string | undefined) =>
    deps.calendar.list(tenantId, threadId ? { threadId } : {});

  typed.get(
    "/v1/calendar/events",
    {
      schema: {
        querystring: ListQuery,
        response: { 200: CalendarEventList, 400: ErrorBody },
      },
    },
    async (req) => ({ events: (await list(req.tenantId, req.query.thread_id)).map(toView) }),
  );

  typed.get(
    "/v1/calendar/events.ics",
    {
      schema: {
        querystring: ListQuery,
        produces: ["text/calendar"],
        response: { 200: z.string().describe("The events as an iCalendar (RFC 5545) file.") },
      },
    },
    async (req, reply) => {
      const events = await list(req.tenantId, req.query.thread_id);
      const body = renderIcs(
        events.map((e) => ({
          uid: `${e.eventId}@solserver`,
          title: e.title,
          start: e.start,
          end: e.end,
          location: e.location,
          stamp: e.createdAt,
        })),
        { name: "SolServer" },
      );
      return reply
        .type("text/calendar; charset=utf-8")
        .header("content-disposition", 'attachment; filename="solserver.ics"')
        .send(body);
    },
  );
}
