import { Thought } from "../../agency/thought.js";
import { SolError } from "../../errors.js";
import type { ThoughtEntry, ThoughtStore } from "../thought-store.js";
import { assertStorableJson, assertStorableKeys, isStorableKey, jsonCopy, keyOf } from "./storable.js";

/** The reference ThoughtStore: every thought in append order, ids unique per tenant. */
export function createInMemoryThoughtStore(): ThoughtStore {
  const rows: { readonly tenantId: string; readonly entry: ThoughtEntry }[] = [];
  const ids = new Set<string>();
  return {
    async append(tenantId, entry) {
      const thought = Thought.parse(entry.thought);
      assertStorableKeys({
        tenantId,
        "thought.id": thought.id,
        decision: entry.decision,
        taskId: entry.taskId,
      });
      assertStorableJson(thought, "thought");
      const key = keyOf(tenantId, thought.id);
      if (ids.has(key)) throw new SolError("conflict", `Thought ${thought.id} already exists`);
      ids.add(key);
      rows.push({
        tenantId,
        entry: {
          thought: jsonCopy(thought),
          broadcast: entry.broadcast,
          ...(entry.decision === undefined ? {} : { decision: entry.decision }),
          ...(entry.taskId === undefined ? {} : { taskId: entry.taskId }),
        },
      });
    },
    async listRecent(tenantId, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0 || !isStorableKey(tenantId)) return [];
      const own = rows.filter((row) => row.tenantId === tenantId);
      return own.slice(Math.max(0, own.length - n)).map((row) => ({
        ...row.entry,
        thought: Thought.parse(jsonCopy(row.entry.thought)),
      }));
    },
    async count(tenantId) {
      return isStorableKey(tenantId) ? rows.filter((row) => row.tenantId === tenantId).length : 0;
    },
  };
}
