import type { ThreadSummary } from "@solserver/core";
import { ThreadPicker } from "./thread-picker.js";

/** Title, thread picker (named by title), New thread, Delete thread, Memories and Settings. */
export function TopBar(props: {
  threadId: string;
  localThreads: readonly string[];
  serverThreads: readonly ThreadSummary[];
  onPickThread(threadId: string): void;
  onNewThread(): void;
  onDeleteThread(): void;
  onToggleMemories(): void;
  onToggleSettings(): void;
}) {
  return (
    <header class="topbar">
      <h1>SolServer</h1>
      <ThreadPicker
        threadId={props.threadId}
        localThreads={props.localThreads}
        serverThreads={props.serverThreads}
        onPickThread={props.onPickThread}
      />
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
