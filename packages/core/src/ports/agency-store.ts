import type { TaskStore } from "./task-store.js";
import type { ThoughtStore } from "./thought-store.js";

/** The agency's persistence: its tasks and the thought history, on one backing store. */
export interface AgencyStore {
  readonly tasks: TaskStore;
  readonly thoughts: ThoughtStore;
}
