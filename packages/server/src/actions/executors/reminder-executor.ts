import {
  type ActionExecutor,
  type ActionReceipt,
  formatInZone,
  type IdGenerator,
  TimeZoneName,
  zonedIsoString,
} from "@solserver/core";
import { z } from "zod";
import type { ReminderRecord, ReminderStore } from "../../store/index.js";
import { clipLine, IsoDateTime, parsePayload } from "./payload.js";

const ReminderPayload = z.looseObject({
  title: z.string().trim().min(1).max(200),
  /** An ISO instant or the user's own phrase ("tomorrow at 9") when it could not be resolved. */
  due: z.string().trim().min(1).max(200).optional(),
  /** The user's IANA zone the due time was read in; the receipt shows the time there. */
  timezone: TimeZoneName.optional(),
});

/** The zone suffix of an RFC 9557 time ("...+01:00[Europe/Paris]"), as stored in the `due` column. */
const ZONE_SUFFIX = /\[([^\]]{1,64})\]$/;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A receipt is read by a person: "Sun 22 Nov 2026, 09:00 UTC" rather than an ISO instant. */
export function formatDueInstant(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** The due instant as the user reads it: in the zone stored with it, else in UTC. */
function dueText(dueAt: string, due: string | null): string {
  const zone = due === null ? undefined : ZONE_SUFFIX.exec(due)?.[1];
  return zone !== undefined && TimeZoneName.safeParse(zone).success
    ? formatInZone(Date.parse(dueAt), zone)
    : formatDueInstant(dueAt);
}

function receiptOf(reminder: ReminderRecord): ActionReceipt {
  const when = reminder.dueAt === null ? reminder.due : dueText(reminder.dueAt, reminder.due);
  const due = when === null ? "" : ` (due ${when})`;
  return { summary: clipLine(`Reminder created: ${reminder.title}${due}`, 500) };
}

/** `create_reminder`: writes one reminders row per action (title, due). */
export function createReminderExecutor(deps: {
  readonly reminders: ReminderStore;
  readonly ids: IdGenerator;
}): ActionExecutor {
  return {
    kind: "create_reminder",
    async execute(payload, ctx) {
      const { title, due, timezone } = parsePayload(ReminderPayload, payload, "reminder");
      const dueAt =
        due !== undefined && IsoDateTime.safeParse(due).success ? new Date(due).toISOString() : null;
      // With a zone the row keeps it (RFC 9557: local time, offset, [zone]), so the receipt, now or
      // after a crash, shows the time where the user is.
      const stored =
        dueAt !== null && timezone !== undefined ? zonedIsoString(Date.parse(dueAt), timezone) : due;
      const { reminder } = await deps.reminders.create({
        tenantId: ctx.tenantId,
        reminderId: deps.ids("rem"),
        actionId: ctx.actionId,
        threadId: ctx.threadId,
        title,
        due: stored ?? null,
        dueAt,
        createdAt: new Date(ctx.nowMs).toISOString(),
      });
      return receiptOf(reminder);
    },
    async findResult(ctx) {
      const reminder = await deps.reminders.getByAction(ctx.tenantId, ctx.actionId);
      return reminder === null ? null : receiptOf(reminder);
    },
  };
}
