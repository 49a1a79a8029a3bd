import type { AgencyStore } from "../agency-store.js";
import { createInMemoryAgencyStateStore } from "./in-memory-agency-state-store.js";
import {
  createInMemoryTaskStore,
  type InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
} from "./in-memory-task-store.js";
import { createInMemoryThoughtStore } from "./in-memory-thought-store.js";

/** The reference AgencyStore; its task store also counts. */
export interface InMemoryAgencyStore extends AgencyStore {
  readonly tasks: InMemoryTaskStore;
}

/** The reference AgencyStore: in-memory tasks, thought history and session state. */
export function createInMemoryAgencyStore(options: InMemoryTaskStoreOptions = {}): InMemoryAgencyStore {
  return {
    tasks: createInMemoryTaskStore(options),
    thoughts: createInMemoryThoughtStore(),
    state: createInMemoryAgencyStateStore(),
  };
}
