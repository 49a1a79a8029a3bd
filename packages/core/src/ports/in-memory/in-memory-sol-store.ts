import type { Clock } from "../../clock/clock.js";
import type { ActionStore } from "../action-store.js";
import type { CalendarStore } from "../calendar-store.js";
import type { CheckpointSessionStore } from "../checkpoint-session-store.js";
import type { ReminderStore } from "../reminder-store.js";
import type { SolStore } from "../sol-store.js";
import { readThreadFromPorts } from "../sol-store.js";
import { createInMemoryActionStore } from "./in-memory-action-store.js";
import { createInMemoryAgencyStore, type InMemoryAgencyStore } from "./in-memory-agency-store.js";
import { createInMemoryCalendarStore } from "./in-memory-calendar-store.js";
import { createInMemoryCheckpointSessionStore } from "./in-memory-checkpoint-session-store.js";
import { commitTurnInMemory, type TurnTables } from "./in-memory-commit-turn.js";
import { createInMemoryMementoStore } from "./in-memory-memento-store.js";
import { createInMemoryMessageStore, createMessageTables } from "./in-memory-message-store.js";
import { createInMemoryReminderStore } from "./in-memory-reminder-store.js";
import { createInMemoryResponseStore } from "./in-memory-response-store.js";
import type { InMemoryTaskStoreOptions } from "./in-memory-task-store.js";
import { createInMemoryTraceStore } from "./in-memory-trace-store.js";
import { createInMemoryTransmissionStore, createTransmissionTables } from "./in-memory-transmission-store.js";

/** Every port of a store, in memory: the SolStore plus the stores the SQL adapter also carries. */
export interface InMemorySolStore extends SolStore {
  readonly kind: "memory";
  readonly actions: ActionStore;
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  readonly checkpointSessions: CheckpointSessionStore;
  readonly agency: InMemoryAgencyStore;
}

/** Options of {@link createInMemorySolStore}. */
export interface InMemorySolStoreOptions extends InMemoryTaskStoreOptions {
  /** Source of trace timestamps for drafts without `ts`; default the system clock. */
  readonly clock?: Clock;
}

/**
 * The reference SolStore: every port over plain maps, with the SQL stores' semantics (idempotent
 * claims, compare-and-swap, the trace hash chain, all-or-nothing turn commits, tenant isolation).
 * For tests and embedding; its data lives as long as the object.
 */
export function createInMemorySolStore(options: InMemorySolStoreOptions = {}): InMemorySolStore {
  const clock = options.clock ?? { now: () => Date.now() };
  const nowIso = () => new Date(clock.now()).toISOString();
  const tables: TurnTables = {
    transmissions: createTransmissionTables(),
    messages: createMessageTables(),
    mementos: new Map(),
    responses: new Map(),
    traces: new Map(),
  };
  let closed = false;
  const store: InMemorySolStore = {
    kind: "memory",
    transmissions: createInMemoryTransmissionStore(tables.transmissions),
    messages: createInMemoryMessageStore(tables.messages),
    mementos: createInMemoryMementoStore(tables.mementos),
    traces: createInMemoryTraceStore(tables.traces, nowIso),
    responses: createInMemoryResponseStore(tables.responses),
    actions: createInMemoryActionStore(),
    reminders: createInMemoryReminderStore(),
    calendar: createInMemoryCalendarStore(),
    checkpointSessions: createInMemoryCheckpointSessionStore(tables.traces, nowIso),
    agency: createInMemoryAgencyStore(options),
    commitTurn: async (input) => commitTurnInMemory(tables, input, nowIso),
    readThread: (tenantId, threadId, windowSize) =>
      readThreadFromPorts(store, tenantId, threadId, windowSize),
    ping: async () => !closed,
    close: async () => {
      closed = true;
    },
  };
  return store;
}
