import { type EnvelopeActionNeeded, formatInZone } from "@solserver/core";
import { type DueTimeContext, resolveDueTime } from "./due-time.js";
import type { ReminderRequest } from "./reminder.js";

/** Builds the `meta.action_needed` entry for a reminder request (breakpoint-chip-permission-gate.md). */
export function reminderAction(reminder: ReminderRequest, context: DueTimeContext): EnvelopeActionNeeded {
  const bullets = [`Create a reminder: ${reminder.title}`];
  const payload: Record<string, unknown> = { title: reminder.title };
  if (reminder.when !== undefined) {
    const due = resolveDueTime(reminder.when, context);
    bullets.push(`Due: ${dueBullet(reminder.when, due, context)}`);
    // An unparseable phrase travels raw so the executor (or the user) can still read it.
    payload.due = due ?? reminder.when;
    // The receipt names the zone the user meant, so the approved payload carries it.
    if (due !== undefined && context.timeZone !== undefined) payload.timezone = context.timeZone;
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

/**
 * "tomorrow at 9 (Thu 6 Mar 2025, 09:00 (Europe/Paris))": the user's phrase and the instant in their
 * zone (UTC when none was given). With only a fixed offset configured, the phrase alone.
 */
function dueBullet(phrase: string, due: string | undefined, context: DueTimeContext): string {
  if (due === undefined) return phrase;
  const zone = context.timeZone ?? (context.offsetMinutes === 0 ? "UTC" : undefined);
  return zone === undefined ? phrase : `${phrase} (${formatInZone(Date.parse(due), zone)})`;
}
