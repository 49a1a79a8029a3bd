import type { AgencyStateStore } from "./agency-state-store.js";
import type { TaskStore } from "./task-store.js";
import type { ThoughtStore } from "./thought-store.js";

/** The agency's persistence: its tasks, the thought history and the session state, on one backing store. */
export interface AgencyStore {
  readonly tasks: TaskStore;
  readonly thoughts: ThoughtStore;
  readonly state: AgencyStateStore;
}
