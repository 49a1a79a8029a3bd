import type { EnvelopeActionNeeded } from "@solserver/core";
import { type DueTimeContext, resolveDueTime } from "./due-time.js";
import type { ReminderRequest } from "./reminder.js";

/** Builds the `meta.action_needed` entry for a reminder request (breakpoint-chip-permission-gate.md). */
export function reminderAction(reminder: ReminderRequest, context: DueTimeContext): EnvelopeActionNeeded {
  const bullets = [`Create a reminder: ${reminder.title}`];
  const payload: Record<string, unknown> = { title: reminder.title };
  if (reminder.when !== undefined) {
    bullets.push(`Due: ${reminder.when}`);
    // An unparseable phrase travels raw so the executor (or the user) can still read it.
    payload.due = resolveDueTime(reminder.when, context) ?? reminder.when;
  }
  return {
    action_kind: "create_reminder",
    action_label: "Create Reminder",
    action_summary_bullets: bullets,
    action_target: "Reminders",
    action_data_used: reminder.when === undefined ? "title" : "title, due time",
    action_why: "You asked me to remind you.",
    action_payload: payload,
  };
}
