import type { ThreadSummary } from "@solserver/core";
import { useEffect, useRef, useState } from "preact/hooks";
import { Composer } from "./components/composer.js";
import { MemoriesPanel } from "./components/memories-panel.js";
import { MessageList } from "./components/message-list.js";
import { ReplyAnnouncer } from "./components/reply-announcer.js";
import { SettingsPanel } from "./components/settings-panel.js";
import { TopBar } from "./components/top-bar.js";
import { TraceView } from "./components/trace-view.js";
import { type AppEnv, AppEnvContext } from "./hooks/app-context.js";
import { watchArrivals } from "./session/arrival-watch.js";
import {
  forgetThreadId,
  loadThreadId,
  loadThreadIds,
  newThreadId,
  saveThreadId,
} from "./storage/local-settings.js";

type Panel = { kind: "settings" } | { kind: "memories" } | { kind: "trace"; traceRunId: string };

/** Root component: one thread on screen, its composer, and the Settings and Trace panels. */
export function App({ env }: { env: AppEnv }) {
  const [threadId, setThreadId] = useState(loadThreadId);
  const [threads, setThreads] = useState(loadThreadIds);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [serverThreads, setServerThreads] = useState<ThreadSummary[]>([]);
  const [listVersion, setListVersion] = useState(0);
  const current = useRef(threadId);
  current.current = threadId;

  useEffect(() => watchArrivals(env.session.queue, env.chips, env.activity, () => current.current), [env]);
  // The server's thread list (titles included); read again after each delivered turn and each delete.
  useEffect(() => {
    let live = true;
    env.session.listThreads().then(
      (found) => live && setServerThreads(found),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [env, listVersion]);
  useEffect(
    () =>
      env.session.queue.subscribe((change) => {
        if (change.kind === "transmission" && change.transmission.status === "succeeded") {
          setListVersion((v) => v + 1);
        }
      }),
    [env],
  );
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
          localThreads={threads}
          serverThreads={serverThreads}
          onPickThread={pick}
          onNewThread={() => pick(newThreadId())}
          onDeleteThread={() => {
            const gone = threadId;
            void env.session.deleteThread(gone).then(
              () => {
                forgetThreadId(gone);
                pick(newThreadId());
                setListVersion((v) => v + 1);
              },
              (err: unknown) => console.error("[sol] delete thread:", err),
            );
          }}
          onToggleMemories={() => setPanel(panel?.kind === "memories" ? null : { kind: "memories" })}
          onToggleSettings={() => setPanel(panel?.kind === "settings" ? null : { kind: "settings" })}
        />
        <main class="thread" aria-label="Thread">
          <MessageList
            threadId={threadId}
            onServer={serverThreads.some((t) => t.threadId === threadId)}
            onTrace={(traceRunId) => setPanel({ kind: "trace", traceRunId })}
          />
          <Composer threadId={threadId} />
          <ReplyAnnouncer threadId={threadId} />
        </main>
        {panel?.kind === "settings" && <SettingsPanel threadId={threadId} onClose={() => setPanel(null)} />}
        {panel?.kind === "memories" && <MemoriesPanel onClose={() => setPanel(null)} />}
        {panel?.kind === "trace" && (
          <TraceView key={panel.traceRunId} traceRunId={panel.traceRunId} onClose={() => setPanel(null)} />
        )}
      </div>
    </AppEnvContext.Provider>
  );
}
