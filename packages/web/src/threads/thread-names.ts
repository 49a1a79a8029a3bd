import { clipText, type ThreadSummary } from "@solserver/core";

/** Longest title made here from a local message (the server clips its titles the same way). */
const TITLE_MAX = 60;

/** A thread's name from its first user message (whitespace collapsed, clipped); undefined without one. */
export function localThreadTitle(
  messages: readonly { readonly role: string; readonly content: string }[],
): string | undefined {
  const first = messages.find((m) => m.role === "user");
  const flat = first?.content.replace(/\s+/gu, " ").trim() ?? "";
  return flat === "" ? undefined : clipText(flat, TITLE_MAX);
}

/** One entry of the thread picker: never a raw id, always words. */
export interface PickerEntry {
  readonly threadId: string;
  readonly label: string;
}

/**
 * The picker's threads, named: the current one first, then the server's (newest first), then local
 * ones the server does not list yet. A thread's name is the server's title, else the one made from
 * its first message on this page; the current thread with no message yet is "New thread". Empty
 * local threads that are not on screen are left out, so New thread clicks do not pile up blanks.
 */
export function pickerEntries(
  current: string,
  local: readonly string[],
  server: readonly ThreadSummary[],
  localTitle: (threadId: string) => string | undefined,
): PickerEntry[] {
  const onServer = new Map(server.map((t) => [t.threadId, t]));
  const ids = [...new Set([current, ...server.map((t) => t.threadId), ...local])];
  const entries: PickerEntry[] = [];
  for (const threadId of ids) {
    const title = onServer.get(threadId)?.title ?? localTitle(threadId);
    if (title !== undefined) entries.push({ threadId, label: title });
    else if (threadId === current) entries.push({ threadId, label: "New thread" });
    // A stored thread whose first message has no words (a memento only): still reachable, unnamed.
    else if (onServer.has(threadId)) entries.push({ threadId, label: "Untitled thread" });
  }
  return entries;
}
