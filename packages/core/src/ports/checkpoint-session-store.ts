import type { TraceEvent, TraceEventDraft } from "../contracts/trace.js";
import type { TenantId } from "./tenant.js";

/** A stored checkpoint session: the engine's state as JSON and its compare-and-swap version. */
export interface StoredCheckpointSession {
  /** A CheckpointSessionState as stored; validate it with `restoreCheckpointSession`. */
  readonly state: unknown;
  readonly version: number;
  /** The chat turn (requestId) whose answer `lastResult` holds; null when none was remembered. */
  readonly lastRequestId: string | null;
  readonly lastResult: unknown;
  readonly updatedAt: string;
}

/** One compare-and-swap write of a session, with the trace events that commit with it. */
export interface CheckpointSessionWrite {
  readonly tenantId: TenantId;
  readonly sessionId: string;
  readonly state: unknown;
  /** null inserts version 1 (conflicts when a row exists); a number updates exactly that version. */
  readonly expectedVersion: number | null;
  readonly now: string;
  /** Remember this answer for a re-run of the same request; omitted keeps the previous memo. */
  readonly memo?: { readonly requestId: string; readonly result: unknown };
  /** Appended to the hash chain of `traceRunId` in the same transaction. */
  readonly trace?: {
    readonly traceRunId: string;
    readonly transmissionId: string | null;
    readonly drafts: readonly TraceEventDraft[];
  };
}

/** `ok: false` means another writer got there first: re-read, re-evaluate, write again. */
export type CheckpointSessionWriteResult =
  | { readonly ok: true; readonly version: number; readonly events: readonly TraceEvent[] }
  | { readonly ok: false };

/** Checkpoint session state per tenant, written only by compare-and-swap. */
export interface CheckpointSessionStore {
  get(tenantId: TenantId, sessionId: string): Promise<StoredCheckpointSession | null>;
  /** Writes the state and its trace events atomically if the version still matches. */
  put(write: CheckpointSessionWrite): Promise<CheckpointSessionWriteResult>;
}
