export type { IndexedDbQueueStoreOptions } from "./indexeddb-store.js";
export { IndexedDbQueueStore } from "./indexeddb-store.js";
export { MemoryQueueStore } from "./memory-store.js";
export { mergeQueueSnapshots } from "./merge-snapshots.js";
export type { QueueStore } from "./queue-store.js";
export { migrateQueueSnapshot, UNSUPPORTED_FORMAT } from "./snapshot-format.js";
