export { createMemoryCalendarStore } from "./memory-calendar-store.js";
export { createMemoryReminderStore } from "./memory-reminder-store.js";
