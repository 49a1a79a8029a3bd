import type { ResponseStore, StoredResponse } from "../response-store.js";
import { isStorableKey, jsonCopy, keyOf } from "./storable.js";

/** Stored responses by tenant and requestId, written by the turn commit. */
export type ResponseTable = Map<string, StoredResponse>;

/** The reference ResponseStore: read-only here; the turn commit writes it. */
export function createInMemoryResponseStore(table: ResponseTable = new Map()): ResponseStore {
  return {
    async get(tenantId, requestId) {
      const row = isStorableKey(tenantId, requestId) ? table.get(keyOf(tenantId, requestId)) : undefined;
      return row === undefined ? null : jsonCopy(row);
    },
  };
}
