import type { TenantId } from "./tenant.js";

/** One version of a thread's checkpoint: the heartbeat's capsule as it was injected. */
export interface StoredCheckpoint {
  readonly tenantId: TenantId;
  readonly threadId: string;
  readonly checkpointId: string;
  /** 1 for the first capsule; +1 each time the content hash changes. */
  readonly version: number;
  /** SHA-256 (hex) of the capsule text. */
  readonly contentHash: string;
  /** The heartbeat reasons that made the checkpoint needed. */
  readonly trigger: readonly string[];
  readonly capsule: string;
  readonly createdAt: string;
}

/** A capsule to keep as the thread's checkpoint. */
export interface CheckpointSave {
  readonly tenantId: TenantId;
  readonly threadId: string;
  /** The id a thread's first checkpoint gets; later versions keep the existing id. */
  readonly newCheckpointId: string;
  readonly contentHash: string;
  readonly trigger: readonly string[];
  readonly capsule: string;
  readonly now: string;
}

/** What a save did: none → created → updated, or unchanged when the hash is the latest one's. */
export interface CheckpointSaveResult {
  readonly outcome: "created" | "updated" | "unchanged";
  readonly checkpoint: StoredCheckpoint;
}

/** Checkpoints that persist, one id per thread, a version per distinct capsule. */
export interface CheckpointStore {
  /** Stores the capsule as the thread's checkpoint: created, a new version, or unchanged. */
  save(input: CheckpointSave): Promise<CheckpointSaveResult>;
  /** The latest version of the thread's checkpoint; null when none. */
  latestForThread(tenantId: TenantId, threadId: string): Promise<StoredCheckpoint | null>;
  /** The latest version of each id the tenant has (unknown ids are left out), in the order asked. */
  getLatest(tenantId: TenantId, checkpointIds: readonly string[]): Promise<StoredCheckpoint[]>;
  /** Removes every version of the thread's checkpoints (a thread delete); returns the rows removed. */
  deleteThreadCheckpoints(tenantId: TenantId, threadId: string): Promise<number>;
}
