import type {
  CaptureRecord,
  LocalMessage,
  QueuedMemorySave,
  QueuedTransmission,
  QueueSnapshot,
} from "../records.js";

/**
 * Merges the snapshot a queue saves (`incoming`) into the one already stored, for stores that several
 * queues share (browser tabs over one IndexedDB): a record only the stored side has was written by
 * another queue and is kept, so no queued message is lost when a tab saves what it knows.
 *
 * For a record both sides hold, the incoming one wins, except that a terminal outcome is never
 * replaced by an earlier state (a `succeeded` transmission, a `ready` capture): another queue that
 * still has it queued would only get the server's replay. Memory saves merge like transmissions. A stored transmission whose requestId an
 * incoming one uses under another id is dropped (requestIds are unique). Incoming records keep their
 * order; stored-only ones are placed among them by `createdAt`.
 */
export function mergeQueueSnapshots(stored: QueueSnapshot, incoming: QueueSnapshot): QueueSnapshot {
  const incomingRequests = new Map(incoming.transmissions.map((t) => [t.requestId, t.transmissionId]));
  const storedTransmissions = stored.transmissions.filter((t) => {
    const owner = incomingRequests.get(t.requestId);
    return owner === undefined || owner === t.transmissionId;
  });
  return {
    formatVersion: incoming.formatVersion,
    transmissions: mergeRecords(
      storedTransmissions,
      incoming.transmissions,
      (t: QueuedTransmission) => t.transmissionId,
      (s, i) => s.status === "succeeded" && i.status !== "succeeded",
    ),
    messages: mergeRecords(
      stored.messages,
      incoming.messages,
      (m: LocalMessage) => m.messageId,
      () => false,
    ),
    captures: mergeRecords(
      stored.captures,
      incoming.captures,
      (c: CaptureRecord) => c.captureId,
      (s, i) => s.status === "ready" && i.status !== "ready",
    ),
    memorySaves: mergeRecords(
      stored.memorySaves,
      incoming.memorySaves,
      (m: QueuedMemorySave) => m.saveId,
      (s, i) => s.status === "succeeded" && i.status !== "succeeded",
    ),
  };
}

function mergeRecords<T extends { readonly createdAt: string }>(
  stored: readonly T[],
  incoming: readonly T[],
  idOf: (record: T) => string,
  keepStored: (stored: T, incoming: T) => boolean,
): T[] {
  const storedById = new Map(stored.map((record) => [idOf(record), record]));
  const incomingIds = new Set(incoming.map(idOf));
  const merged = incoming.map((record) => {
    const other = storedById.get(idOf(record));
    return other !== undefined && keepStored(other, record) ? other : record;
  });
  for (const record of stored) {
    if (incomingIds.has(idOf(record))) continue;
    const at = merged.findIndex((m) => m.createdAt > record.createdAt);
    if (at === -1) merged.push(record);
    else merged.splice(at, 0, record);
  }
  return merged;
}
