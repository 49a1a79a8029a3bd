import { useEffect, useRef, useState } from "preact/hooks";
import { Composer } from "./components/composer.js";
import { MessageList } from "./components/message-list.js";
import { ReplyAnnouncer } from "./components/reply-announcer.js";
import { SettingsPanel } from "./components/settings-panel.js";
import { TopBar } from "./components/top-bar.js";
import { TraceView } from "./components/trace-view.js";
import { type AppEnv, AppEnvContext } from "./hooks/app-context.js";
import { watchArrivals } from "./session/arrival-watch.js";
import { loadThreadId, loadThreadIds, newThreadId, saveThreadId } from "./storage/local-settings.js";

/** Root component: one thread on screen, its composer, and the Settings and Trace panels. */
export function App({ env }: { env: AppEnv }) {
  const [threadId, setThreadId] = useState(loadThreadId);
  const [threads, setThreads] = useState(loadThreadIds);
  const [panel, setPanel] = useState<{ kind: "settings" } | { kind: "trace"; traceRunId: string } | null>(
    null,
  );
  const current = useRef(threadId);
  current.current = threadId;

  useEffect(() => watchArrivals(env.session.queue, env.chips, env.activity, () => current.current), [env]);

  const pick = (id: string) => {
    saveThreadId(id);
    setThreadId(id);
    setThreads(loadThreadIds());
  };

  return (
    <AppEnvContext.Provider value={env}>
      <div class="app">
        <TopBar
          threadId={threadId}
          threads={threads}
          onPickThread={pick}
          onNewThread={() => pick(newThreadId())}
          onToggleSettings={() => setPanel(panel?.kind === "settings" ? null : { kind: "settings" })}
        />
        <main class="thread" aria-label="Thread">
          <MessageList
            threadId={threadId}
            onTrace={(traceRunId) => setPanel({ kind: "trace", traceRunId })}
          />
          <Composer threadId={threadId} />
          <ReplyAnnouncer threadId={threadId} />
        </main>
        {panel?.kind === "settings" && <SettingsPanel threadId={threadId} onClose={() => setPanel(null)} />}
        {panel?.kind === "trace" && (
          <TraceView key={panel.traceRunId} traceRunId={panel.traceRunId} onClose={() => setPanel(null)} />
        )}
      </div>
    </AppEnvContext.Provider>
  );
}
