export { createInMemoryActionStore } from "./in-memory-action-store.js";
export { createInMemoryAgencyStateStore } from "./in-memory-agency-state-store.js";
export { createInMemoryAgencyStore, type InMemoryAgencyStore } from "./in-memory-agency-store.js";
export { createInMemoryCalendarStore } from "./in-memory-calendar-store.js";
export { createInMemoryCheckpointSessionStore } from "./in-memory-checkpoint-session-store.js";
export { createInMemoryCheckpointStore } from "./in-memory-checkpoint-store.js";
export { createInMemoryDriverBlockStore } from "./in-memory-driver-block-store.js";
export { createInMemoryMementoStore } from "./in-memory-memento-store.js";
export { createInMemoryMemoryStore } from "./in-memory-memory-store.js";
export { createInMemoryMessageStore } from "./in-memory-message-store.js";
export { createInMemoryPinnedContextStore } from "./in-memory-pinned-context-store.js";
export { createInMemoryReminderStore } from "./in-memory-reminder-store.js";
export { createInMemoryResponseStore } from "./in-memory-response-store.js";
export {
  createInMemorySolStore,
  type InMemorySolStore,
  type InMemorySolStoreOptions,
} from "./in-memory-sol-store.js";
export {
  createInMemoryTaskStore,
  type InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
} from "./in-memory-task-store.js";
export { createInMemoryThoughtStore } from "./in-memory-thought-store.js";
export { createInMemoryTraceStore } from "./in-memory-trace-store.js";
export { createInMemoryTransmissionStore } from "./in-memory-transmission-store.js";
