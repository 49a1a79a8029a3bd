import type { PacketInput, SolStore, StoredMemento, StoredMessage, ThreadStats } from "@solserver/core";
import type { TurnContext } from "./turn-service.js";

/** What a turn reads of its thread before it starts: memento, recent window, stats. */
export type ThreadReads = [StoredMemento | null, StoredMessage[], ThreadStats];

/** Reads the thread's stored state a turn starts from: memento, recent window and stats. */
export function readThread(
  store: SolStore,
  ctx: TurnContext,
  packet: PacketInput,
  windowSize: number,
): Promise<ThreadReads> {
  const { tenantId } = ctx;
  const { threadId } = packet;
  // Independent reads, issued together: under SQLite group commit each read waits for the open
  // group's COMMIT, so reading one after another cost one loop turn each.
  return Promise.all([
    store.mementos.get(tenantId, threadId),
    // A caller-supplied window replaces the stored history; the thread's stats still give the mode.
    packet.thread_context_mode === "off" || ctx.window
      ? Promise.resolve([])
      : store.messages.listRecent(tenantId, threadId, windowSize),
    store.messages.threadStats(tenantId, threadId),
  ]);
}
