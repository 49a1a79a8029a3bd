import type { ThreadSummary } from "@solserver/core";

/** How a thread is named in the picker: its server title, else a short id. */
export function threadLabel(threadId: string, titles: ReadonlyMap<string, string>): string {
  return titles.get(threadId) ?? `New thread (${threadId.slice(4, 10)})`;
}

/** The picker's threads: the server's (newest first) then local ones it does not know yet. */
export function pickerThreads(
  current: string,
  local: readonly string[],
  server: readonly ThreadSummary[],
): string[] {
  const ids = [current, ...server.map((t) => t.threadId), ...local];
  return [...new Set(ids)];
}

/** Title, thread picker (named by title), New thread, Delete thread, Memories and Settings. */
export function TopBar(props: {
  threadId: string;
  threads: readonly string[];
  titles: ReadonlyMap<string, string>;
  onPickThread(threadId: string): void;
  onNewThread(): void;
  onDeleteThread(): void;
  onToggleMemories(): void;
  onToggleSettings(): void;
}) {
  return (
    <header class="topbar">
      <h1>SolServer</h1>
      <label class="visually-hidden" for="thread-picker">
        Thread
      </label>
      <select
        id="thread-picker"
        value={props.threadId}
        onChange={(e) => props.onPickThread(e.currentTarget.value)}
      >
        {props.threads.map((t) => (
          <option key={t} value={t}>
            {threadLabel(t, props.titles)}
          </option>
        ))}
      </select>
      <button type="button" class="btn btn-small" onClick={props.onNewThread}>
        New thread
      </button>
      <button type="button" class="btn btn-small" onClick={props.onDeleteThread}>
        Delete thread
      </button>
      <button type="button" class="btn btn-small" onClick={props.onToggleMemories}>
        Memories
      </button>
      <button type="button" class="btn btn-small" onClick={props.onToggleSettings}>
        Settings
      </button>
    </header>
  );
}
