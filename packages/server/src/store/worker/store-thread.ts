// Entry of the store thread (see open-worker-store.ts): opens the real store on this thread and
// answers the main thread's method calls, so SQLite, the trace hash chain and the query builder run
// beside the request path instead of on it.
import { parentPort, workerData } from "node:worker_threads";
import { SolError } from "@solserver/core";
import { openStore, type SqlSolStore } from "../open-store.js";
import { createAgencyStore } from "../repos/agency-store.js";
import type { TaskStoreOptions } from "../repos/task-store.js";
import {
  batchPerTick,
  encodeError,
  type RpcCall,
  type RpcHello,
  type RpcReply,
  STORE_RPC_VERSION,
} from "./rpc.js";

/** What the main thread hands the store thread at start. */
export interface StoreThreadData {
  readonly version: number;
  readonly url: string;
  readonly busyTimeoutMs: number;
  readonly migrate: boolean;
  /** The caller's clock at open, when it has its own; calls then carry their reading (RpcCall.now). */
  readonly now?: number;
  readonly agency: Pick<TaskStoreOptions, "isProduction" | "strictFinalize">;
}

type Target = Record<string, unknown>;

/** The stores this thread serves, by target name; the kysely handle stays private to the thread. */
function targetsOf(store: SqlSolStore, agencyOptions: StoreThreadData["agency"]): Map<string, Target> {
  const { db: _db, ...root } = store;
  const agency = createAgencyStore(store, agencyOptions);
  const targets = new Map<string, Target>([["", root as unknown as Target]]);
  for (const [name, value] of Object.entries(root)) {
    if (typeof value === "object" && value !== null) targets.set(name, value as unknown as Target);
  }
  targets.set("agency.tasks", agency.tasks as unknown as Target);
  targets.set("agency.thoughts", agency.thoughts as unknown as Target);
  targets.set("agency.state", agency.state as unknown as Target);
  return targets;
}

function manifestOf(targets: Map<string, Target>): Record<string, string[]> {
  const manifest: Record<string, string[]> = {};
  for (const [name, target] of targets) {
    manifest[name] = Object.keys(target).filter((key) => typeof target[key] === "function");
  }
  return manifest;
}

/** The reply itself when it can be cloned, else an `internal` error in its place. */
function cloneableReply(message: RpcReply): RpcReply {
  try {
    structuredClone(message);
    return message;
  } catch (cause) {
    const failure = new SolError("internal", "A store result could not cross to the main thread", { cause });
    return { id: message.id, ok: false, error: encodeError(failure) };
  }
}

async function main(port: NonNullable<typeof parentPort>, data: StoreThreadData): Promise<void> {
  if (data.version !== STORE_RPC_VERSION) {
    const error = new SolError(
      "internal",
      `Store thread protocol ${data.version} is not ${STORE_RPC_VERSION}`,
    );
    port.postMessage({ type: "failed", error: encodeError(error) } satisfies RpcHello);
    return;
  }
  // A caller's own clock cannot cross threads: its reading arrives with each call instead and is the
  // store's time while that call starts (a call interleaved after an await may see a later reading).
  let callerNow = data.now;
  const clock = { now: () => callerNow ?? Date.now() };
  let store: SqlSolStore;
  try {
    store = await openStore(data.url, { busyTimeoutMs: data.busyTimeoutMs, migrate: data.migrate, clock });
  } catch (error) {
    port.postMessage({ type: "failed", error: encodeError(error) } satisfies RpcHello);
    return;
  }
  const targets = targetsOf(store, data.agency);
  // Answers settled in one tick travel as one message (a group commit settles many calls at once).
  let closing = false;
  const reply = batchPerTick<RpcReply>((batch) => {
    try {
      port.postMessage(batch);
    } catch {
      // A value the clone algorithm rejects must still answer its call rather than leave it hanging.
      port.postMessage(batch.map(cloneableReply));
    }
    // The thread ends once the store is closed and the caller has its answer.
    if (closing) port.close();
  });
  const handle = (call: RpcCall) => {
    const target = targets.get(call.target);
    const fn = target?.[call.method];
    if (typeof fn !== "function") {
      const error = new SolError("internal", `Unknown store method ${call.target}.${call.method}`);
      reply({ id: call.id, ok: false, error: encodeError(error) });
      return;
    }
    if (call.now !== undefined) callerNow = call.now;
    let result: unknown;
    try {
      result = (fn as (...args: unknown[]) => unknown).apply(target, call.args as unknown[]);
    } catch (error) {
      reply({ id: call.id, ok: false, error: encodeError(error) });
      return;
    }
    Promise.resolve(result).then(
      (value) => {
        if (call.target === "" && call.method === "close") closing = true;
        reply({ id: call.id, ok: true, value });
      },
      (error: unknown) => reply({ id: call.id, ok: false, error: encodeError(error) }),
    );
  };
  port.on("message", (calls: readonly RpcCall[]) => {
    for (const call of calls) handle(call);
  });
  port.postMessage({
    type: "ready",
    version: STORE_RPC_VERSION,
    kind: store.kind,
    manifest: manifestOf(targets),
  } satisfies RpcHello);
}

if (parentPort !== null) void main(parentPort, workerData as StoreThreadData);
