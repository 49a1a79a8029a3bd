import type { PacketInput, SolStore, StoredMemento, StoredMessage, ThreadStats } from "@solserver/core";

/** What a turn reads of its thread before it starts: memento, recent window, stats. */
export type ThreadReads = [StoredMemento | null, StoredMessage[], ThreadStats];

/**
 * Reads the thread's stored state a turn starts from: memento, recent window and stats. The window
 * is not read when the caller brings its own (`callerWindow`) or thread context is off.
 */
export function readThread(
  store: SolStore,
  tenantId: string,
  packet: PacketInput,
  callerWindow: boolean,
  windowSize: number,
): Promise<ThreadReads> {
  const { threadId } = packet;
  // One store call, one round trip on PostgreSQL. A caller-supplied window replaces the stored
  // history; the thread's stats still give the mode.
  const window = packet.thread_context_mode === "off" || callerWindow ? 0 : windowSize;
  return store
    .readThread(tenantId, threadId, window)
    .then(({ memento, recent, stats }): ThreadReads => [memento, recent, stats]);
}
