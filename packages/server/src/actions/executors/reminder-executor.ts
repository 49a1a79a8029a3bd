import type { ActionExecutor, ActionReceipt, IdGenerator } from "@solserver/core";
import { z } from "zod";
import type { ReminderRecord, ReminderStore } from "../../store/index.js";
import { clipLine, IsoDateTime, parsePayload } from "./payload.js";

const ReminderPayload = z.looseObject({
  title: z.string().trim().min(1).max(200),
  /** An ISO instant or the user's own phrase ("tomorrow at 9") when it could not be resolved. */
  due: z.string().trim().min(1).max(200).optional(),
});

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A receipt is read by a person: "Sun 22 Nov 2026, 09:00 UTC" rather than an ISO instant. */
export function formatDueInstant(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

function receiptOf(reminder: ReminderRecord): ActionReceipt {
  const when = reminder.dueAt === null ? reminder.due : formatDueInstant(reminder.dueAt);
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
      const { title, due } = parsePayload(ReminderPayload, payload, "reminder");
      const dueAt =
        due !== undefined && IsoDateTime.safeParse(due).success ? new Date(due).toISOString() : null;
      const { reminder } = await deps.reminders.create({
        tenantId: ctx.tenantId,
        reminderId: deps.ids("rem"),
        actionId: ctx.actionId,
        threadId: ctx.threadId,
        title,
        due: due ?? null,
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
