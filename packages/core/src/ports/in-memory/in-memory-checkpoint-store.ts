import type { CheckpointStore, StoredCheckpoint } from "../checkpoint-store.js";

/** The reference CheckpointStore: every version in an array, oldest first. */
export function createInMemoryCheckpointStore(): CheckpointStore {
  let rows: StoredCheckpoint[] = [];
  const latest = (match: (row: StoredCheckpoint) => boolean): StoredCheckpoint | null =>
    rows
      .filter(match)
      .reduce<StoredCheckpoint | null>(
        (best, row) => (best === null || row.version > best.version ? row : best),
        null,
      );
  return {
    async save(input) {
      const held = latest((row) => row.tenantId === input.tenantId && row.threadId === input.threadId);
      if (held !== null && held.contentHash === input.contentHash)
        return { outcome: "unchanged", checkpoint: held };
      const checkpoint: StoredCheckpoint = {
        tenantId: input.tenantId,
        threadId: input.threadId,
        checkpointId: held?.checkpointId ?? input.newCheckpointId,
        version: (held?.version ?? 0) + 1,
        contentHash: input.contentHash,
        trigger: [...input.trigger],
        capsule: input.capsule,
        createdAt: input.now,
      };
      rows.push(checkpoint);
      return { outcome: held === null ? "created" : "updated", checkpoint };
    },
    async latestForThread(tenantId, threadId) {
      return latest((row) => row.tenantId === tenantId && row.threadId === threadId);
    },
    async getLatest(tenantId, checkpointIds) {
      return [...new Set(checkpointIds)].flatMap((id) => {
        const found = latest((row) => row.tenantId === tenantId && row.checkpointId === id);
        return found === null ? [] : [found];
      });
    },
    async deleteThreadCheckpoints(tenantId, threadId) {
      const before = rows.length;
      rows = rows.filter((row) => !(row.tenantId === tenantId && row.threadId === threadId));
      return before - rows.length;
    },
  };
}
