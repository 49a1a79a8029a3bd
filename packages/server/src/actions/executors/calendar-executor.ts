import type { ActionExecutor, ActionReceipt, IdGenerator } from "@solserver/core";
import { z } from "zod";
import type { CalendarEventRecord, CalendarStore } from "../../store/index.js";
import { clipLine, IsoDate, IsoDateTime, parsePayload } from "./payload.js";

const When = z.union([IsoDateTime, IsoDate]);

const EventPayload = z
  .looseObject({
    title: z.string().trim().min(1).max(200),
    start: When,
    end: When.optional(),
    location: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.end === undefined) return;
    const allDay = IsoDate.safeParse(p.start).success;
    if (allDay !== IsoDate.safeParse(p.end).success) {
      ctx.addIssue({
        code: "custom",
        path: ["end"],
        message: "end must be a date when start is, else a date-time",
      });
    } else if (Date.parse(p.end) < Date.parse(p.start)) {
      ctx.addIssue({ code: "custom", path: ["end"], message: "end is before start" });
    }
  });

/** Dates stay dates (all-day); instants are normalised to UTC. */
function normalise(when: string): string {
  return IsoDate.safeParse(when).success ? when : new Date(when).toISOString();
}

function receiptOf(event: CalendarEventRecord): ActionReceipt {
  const where = event.location === null ? "" : ` at ${event.location}`;
  return { summary: clipLine(`Event added: ${event.title} on ${event.start}${where}`, 500) };
}

/** `create_calendar_event`: writes one calendar_events row per action (title, start, end?, location?). */
export function createCalendarExecutor(deps: {
  readonly calendar: CalendarStore;
  readonly ids: IdGenerator;
}): ActionExecutor {
  return {
    kind: "create_calendar_event",
    async execute(payload, ctx) {
      const p = parsePayload(EventPayload, payload, "calendar event");
      const { event } = await deps.calendar.create({
        tenantId: ctx.tenantId,
        eventId: deps.ids("evt"),
        actionId: ctx.actionId,
        threadId: ctx.threadId,
        title: p.title,
        start: normalise(p.start),
        end: p.end === undefined ? null : normalise(p.end),
        location: p.location ?? null,
        createdAt: new Date(ctx.nowMs).toISOString(),
      });
      return receiptOf(event);
    },
    async findResult(ctx) {
      const event = await deps.calendar.getByAction(ctx.tenantId, ctx.actionId);
      return event === null ? null : receiptOf(event);
    },
  };
}
