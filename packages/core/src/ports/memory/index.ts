export { createMemoryCalendarStore } from "./memory-calendar-store.js";
export { createMemoryCheckpointStore } from "./memory-checkpoint-store.js";
export { createMemoryReminderStore } from "./memory-reminder-store.js";
