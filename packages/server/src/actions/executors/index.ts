import type {
  ActionExecutor,
  DriverBlockStore,
  IdGenerator,
  MemoryStore,
  PolicyEngine,
} from "@solserver/core";
import type { CalendarStore, ReminderStore } from "../../store/index.js";
import { createCalendarExecutor } from "./calendar-executor.js";
import { createDriverBlockExecutor } from "./driver-block-executor.js";
import { createMemoryExecutor } from "./memory-executor.js";
import { createReminderExecutor } from "./reminder-executor.js";
import { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

export { createCalendarExecutor } from "./calendar-executor.js";
export { assertRoomForBlock, createDriverBlockExecutor, driverBlockHash } from "./driver-block-executor.js";
export { createMemoryExecutor } from "./memory-executor.js";
export { createReminderExecutor } from "./reminder-executor.js";
export { createWebhookExecutor, type WebhookOptions } from "./webhook-executor.js";

/**
 * The built-in executors: create_reminder, create_calendar_event, webhook, and given their stores
 * save_memory and create_driver_block.
 */
export function builtinExecutors(deps: {
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  readonly ids: IdGenerator;
  readonly webhook?: WebhookOptions;
  readonly memories?: MemoryStore;
  readonly driverBlocks?: { readonly store: DriverBlockStore; readonly policy: PolicyEngine };
}): ActionExecutor[] {
  return [
    createReminderExecutor(deps),
    createCalendarExecutor(deps),
    createWebhookExecutor(deps.webhook ?? {}),
    ...(deps.memories === undefined ? [] : [createMemoryExecutor({ memories: deps.memories })]),
    ...(deps.driverBlocks === undefined
      ? []
      : [
          createDriverBlockExecutor({
            driverBlocks: deps.driverBlocks.store,
            policy: deps.driverBlocks.policy,
          }),
        ]),
  ];
}
