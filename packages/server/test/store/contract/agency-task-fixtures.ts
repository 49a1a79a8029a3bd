import { buildNewTask, finalizeNewTask, type IdGenerator, type Task } from "@solserver/core";
import {
  type AgencyStore,
  createAgencyStore,
  type SqlSolStore,
  type TaskStoreOptions,
} from "../../../src/store/index.js";
import { isThreadedStore } from "../../../src/store/worker/open-threaded.js";
import type { AgencyOptions, ContractAgencyStore, Harness, PortHarness } from "./harness.js";

export const A = "tenant-a";
export const B = "tenant-b";
export const NOW = Date.parse("2025-03-01T10:00:00.000Z");

export function counterIds(): IdGenerator {
  let n = 0;
  return (prefix) => `${prefix}-${++n}`;
}

/** A task built the way the converter builds one (buildNewTask), optionally finalized. */
export function newTask(
  ids: IdGenerator,
  options: { goalKey?: string; finalize?: boolean; nowMs?: number; metadata?: Record<string, unknown> } = {},
): Task {
  const nowMs = options.nowMs ?? NOW;
  const built = buildNewTask(
    {
      type: "gathering",
      title: "Collect 8 oak log",
      parameters: { action: "collect", target: "oak_log", amount: 8 },
      metadata: { goalKey: options.goalKey ?? "collect:oak_log", ...options.metadata },
    },
    { nowMs, ids },
  );
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  return options.finalize === false
    ? built.value
    : finalizeNewTask(built.value, { kind: "thought", thoughtId: "th-1", source: "test" }, { nowMs });
}

/** The same task with extra metadata keys smuggled past the type (as JavaScript callers can). */
export function withRawMetadata(task: Task, extra: Record<string, unknown>): Task {
  return { ...task, metadata: { ...task.metadata, ...extra } } as Task;
}

export async function open(
  harness: Harness,
  options: TaskStoreOptions = {},
): Promise<AgencyStore & { readonly sql: SqlSolStore }> {
  const store = await harness.open();
  // A store on its own thread brings its agency store (calls cross threads); a warn hook cannot.
  if (isThreadedStore(store) && Object.keys(options).length === 0) return { ...store.agency, sql: store };
  return { ...createAgencyStore(store, { warn: () => {}, ...options }), sql: store };
}

/** The agency store beside a fresh port-level store of this test; options as the SQL task store's. */
export async function openPorts(harness: PortHarness, options?: AgencyOptions): Promise<ContractAgencyStore> {
  return harness.agency(await harness.open(), options);
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "resolved",
    (error: unknown) => error,
  );
}
