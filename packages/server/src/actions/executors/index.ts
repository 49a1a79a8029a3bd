import type { ActionExecutor, IdGenerator } from "@solserver/core";
import type { CalendarStore, ReminderStore } from "../../store/index.js";
import { createCalendarExecutor } from "./calendar-executor.js";
import { createReminderExecutor } from "./reminder-executor.js";
import { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

export { createCalendarExecutor } from "./calendar-executor.js";
export { createReminderExecutor } from "./reminder-executor.js";
export { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

/** The built-in executors: create_reminder, create_calendar_event and webhook. */
export function builtinExecutors(deps: {
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  readonly ids: IdGenerator;
  readonly webhook?: WebhookOptions;
}): ActionExecutor[] {
  return [
    createReminderExecutor(deps),
    createCalendarExecutor(deps),
    createWebhookExecutor(deps.webhook ?? {}),
  ];
}
