export { createMemoryCalendarStore } from "./memory-calendar-store.js";
export { createMemoryMemoryStore } from "./memory-memory-store.js";
export { createMemoryReminderStore } from "./memory-reminder-store.js";
