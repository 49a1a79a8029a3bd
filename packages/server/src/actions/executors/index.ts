import type { ActionExecutor, IdGenerator, MemoryStore } from "@solserver/core";
import type { CalendarStore, ReminderStore } from "../../store/index.js";
import { createCalendarExecutor } from "./calendar-executor.js";
import { createMemoryExecutor } from "./memory-executor.js";
import { createReminderExecutor } from "./reminder-executor.js";
import { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

export { createCalendarExecutor } from "./calendar-executor.js";
export { createMemoryExecutor } from "./memory-executor.js";
export { createReminderExecutor } from "./reminder-executor.js";
export { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

/** The built-in executors: create_reminder, create_calendar_event, webhook and (given a store) save_memory. */
export function builtinExecutors(deps: {
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  readonly ids: IdGenerator;
  readonly webhook?: WebhookOptions;
  readonly memories?: MemoryStore;
}): ActionExecutor[] {
  return [
    createReminderExecutor(deps),
    createCalendarExecutor(deps),
    createWebhookExecutor(deps.webhook ?? {}),
    ...(deps.memories === undefined ? [] : [createMemoryExecutor({ memories: deps.memories })]),
  ];
}
