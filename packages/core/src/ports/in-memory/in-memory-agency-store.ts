import type { AgencyStore } from "../agency-store.js";
import { createInMemoryTaskStore, type InMemoryTaskStoreOptions } from "./in-memory-task-store.js";
import { createInMemoryThoughtStore } from "./in-memory-thought-store.js";

/** The reference AgencyStore: in-memory tasks and thought history. */
export function createInMemoryAgencyStore(options: InMemoryTaskStoreOptions = {}): AgencyStore {
  return { tasks: createInMemoryTaskStore(options), thoughts: createInMemoryThoughtStore() };
}
