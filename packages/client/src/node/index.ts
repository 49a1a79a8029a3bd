export type { FileQueueStoreOptions } from "./file-store.js";
export { FileQueueStore } from "./file-store.js";
