import type { PinnedContextStore, StoredPinnedContext } from "../pinned-context-store.js";

/** The reference PinnedContextStore: every version in an array, oldest first. */
export function createInMemoryPinnedContextStore(): PinnedContextStore {
  let rows: StoredPinnedContext[] = [];
  const versions = (tenantId: string, id: string) =>
    rows.filter((row) => row.tenantId === tenantId && row.pinnedContextId === id);
  const latest = (tenantId: string, id: string) => versions(tenantId, id).at(-1) ?? null;
  return {
    async put(input) {
      const held = latest(input.tenantId, input.pinnedContextId);
      if (held !== null && held.hash === input.hash) return { outcome: "unchanged", pinnedContext: held };
      const pinnedContext: StoredPinnedContext = {
        tenantId: input.tenantId,
        pinnedContextId: input.pinnedContextId,
        version: (held?.version ?? 0) + 1,
        hash: input.hash,
        content: input.content,
        createdAt: input.now,
      };
      rows.push(pinnedContext);
      return { outcome: held === null ? "created" : "updated", pinnedContext };
    },
    async get(tenantId, id, version) {
      if (version === undefined) return latest(tenantId, id);
      return versions(tenantId, id).find((row) => row.version === version) ?? null;
    },
    async delete(tenantId, id) {
      const before = rows.length;
      rows = rows.filter((row) => !(row.tenantId === tenantId && row.pinnedContextId === id));
      return before - rows.length;
    },
  };
}
