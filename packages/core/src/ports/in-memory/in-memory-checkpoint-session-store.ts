import type {
  CheckpointSessionStore,
  CheckpointSessionWrite,
  StoredCheckpointSession,
} from "../checkpoint-session-store.js";
import { appendChained, checkDrafts, type TraceTable } from "./in-memory-trace-store.js";
import {
  assertStorableJson,
  assertStorableKeys,
  isStorableKey,
  isStorableVersion,
  jsonCopy,
  keyOf,
} from "./storable.js";

function nextVersion(current: StoredCheckpointSession | undefined, expected: number | null): number | null {
  if (expected === null) return current === undefined ? 1 : null;
  if (!isStorableVersion(expected) || current?.version !== expected) return null;
  return expected + 1;
}

function checkWrite(write: CheckpointSessionWrite): void {
  assertStorableKeys({
    tenantId: write.tenantId,
    sessionId: write.sessionId,
    requestId: write.memo?.requestId,
  });
  assertStorableJson(write.state, "checkpoint session state");
  if (write.memo) assertStorableJson(write.memo.result, "checkpoint session result");
  if (write.trace)
    checkDrafts(write.tenantId, write.trace.traceRunId, write.trace.transmissionId, write.trace.drafts);
}

/** The reference CheckpointSessionStore; its trace events go to the given trace table with the state. */
export function createInMemoryCheckpointSessionStore(
  traces: TraceTable = new Map(),
  nowIso = () => new Date().toISOString(),
): CheckpointSessionStore {
  const sessions = new Map<string, StoredCheckpointSession>();
  return {
    async get(tenantId, sessionId) {
      const row = isStorableKey(tenantId, sessionId) ? sessions.get(keyOf(tenantId, sessionId)) : undefined;
      return row === undefined ? null : jsonCopy(row);
    },
    async put(write) {
      checkWrite(write);
      const key = keyOf(write.tenantId, write.sessionId);
      const current = sessions.get(key);
      const version = nextVersion(current, write.expectedVersion);
      if (version === null) return { ok: false };
      sessions.set(key, {
        state: jsonCopy(write.state),
        version,
        lastRequestId: write.memo ? write.memo.requestId : (current?.lastRequestId ?? null),
        lastResult: write.memo ? jsonCopy(write.memo.result) : (current?.lastResult ?? null),
        updatedAt: write.now,
      });
      const trace = write.trace;
      const events =
        trace === undefined || trace.drafts.length === 0
          ? []
          : appendChained(
              traces,
              write.tenantId,
              trace.traceRunId,
              trace.transmissionId,
              trace.drafts,
              nowIso,
            );
      return { ok: true, version, events };
    },
  };
}
