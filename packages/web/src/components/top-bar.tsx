/** Title, thread picker, New thread and the Settings toggle. */
export function TopBar(props: {
  threadId: string;
  threads: readonly string[];
  onPickThread(threadId: string): void;
  onNewThread(): void;
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
            {t.slice(0, 12)}
          </option>
        ))}
      </select>
      <button type="button" class="btn btn-small" onClick={props.onNewThread}>
        New thread
      </button>
      <button type="button" class="btn btn-small" onClick={props.onToggleSettings}>
        Settings
      </button>
    </header>
  );
}
