import type { DriverBlockStore, StoredDriverBlock } from "../driver-block-store.js";

/** The reference DriverBlockStore: every version in an array, oldest first. */
export function createInMemoryDriverBlockStore(): DriverBlockStore {
  let rows: StoredDriverBlock[] = [];
  const owns = (row: StoredDriverBlock, tenantId: string, id: string) =>
    row.tenantId === tenantId && row.blockId === id;
  const latest = (tenantId: string, id: string) =>
    rows.filter((row) => owns(row, tenantId, id)).at(-1) ?? null;
  const setEnabled = (tenantId: string, id: string, enabled: boolean, now: string) => {
    rows = rows.map((row) => (owns(row, tenantId, id) ? { ...row, enabled, updatedAt: now } : row));
    return latest(tenantId, id);
  };
  return {
    async put(input) {
      const held = latest(input.tenantId, input.blockId);
      if (held !== null && held.hash === input.hash) {
        const driverBlock = held.enabled ? held : setEnabled(input.tenantId, input.blockId, true, input.now);
        return { outcome: "unchanged", driverBlock: driverBlock ?? held };
      }
      const version = (held?.version ?? 0) + 1;
      const driverBlock: StoredDriverBlock = {
        tenantId: input.tenantId,
        blockId: input.blockId,
        version,
        hash: input.hash,
        block: { ...input.block, version },
        enabled: true,
        createdAt: input.now,
        updatedAt: input.now,
      };
      // Older versions follow the id's switch: enabling the id is enabling its latest version.
      rows = rows.map((row) =>
        owns(row, input.tenantId, input.blockId) ? { ...row, enabled: true, updatedAt: input.now } : row,
      );
      rows.push(driverBlock);
      return { outcome: held === null ? "created" : "updated", driverBlock };
    },
    async get(tenantId, id) {
      return latest(tenantId, id);
    },
    async list(tenantId) {
      const ids = [...new Set(rows.filter((row) => row.tenantId === tenantId).map((row) => row.blockId))];
      return ids
        .sort()
        .map((id) => latest(tenantId, id))
        .filter((row): row is StoredDriverBlock => row !== null);
    },
    async setEnabled(tenantId, id, enabled, now) {
      if (latest(tenantId, id) === null) return null;
      return setEnabled(tenantId, id, enabled, now);
    },
    async delete(tenantId, id) {
      const before = rows.length;
      rows = rows.filter((row) => !owns(row, tenantId, id));
      return before - rows.length;
    },
  };
}
