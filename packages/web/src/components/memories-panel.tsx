import type { Memory } from "@solserver/client";
import { useEffect, useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useDialogFocus } from "../hooks/use-dialog-focus.js";

/** The tenant's memories: a search box (ranked by the server) and a Delete button for each. */
export function MemoriesPanel({ onClose }: { onClose(): void }) {
  const { session } = useAppEnv();
  const panel = useDialogFocus<HTMLElement>(onClose);
  const [query, setQuery] = useState("");
  const [memories, setMemories] = useState<Memory[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    session.listMemories(query).then(
      (found) => {
        if (!live) return;
        setMemories(found);
        setError(null);
      },
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [session, query, version]);

  const remove = async (memoryId: string) => {
    try {
      await session.deleteMemory(memoryId);
      setVersion((v) => v + 1);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <aside ref={panel} class="panel memories" role="dialog" aria-label="Memories" tabIndex={-1}>
      <header class="panel-head">
        <h2>Memories</h2>
        <button type="button" class="btn btn-small" onClick={onClose}>
          Close
        </button>
      </header>
      <label for="memory-search">Search memories</label>
      <input
        id="memory-search"
        type="search"
        value={query}
        placeholder="e.g. birthday"
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      {error && <p role="alert">Could not load memories: {error}</p>}
      {memories !== null && memories.length === 0 && <p class="hint">No memories yet.</p>}
      <ul class="memory-list" aria-label="Memory list">
        {(memories ?? []).map((m) => (
          <li key={m.memoryId} class="memory-item" data-memory-id={m.memoryId}>
            <p class="memory-summary" dir="auto">
              {m.summary}
            </p>
            {m.domainFlags.length > 0 && <span class="tag">{m.domainFlags.join(", ")}</span>}
            <button
              type="button"
              class="btn btn-small"
              aria-label={`Delete memory: ${m.summary}`}
              onClick={() => void remove(m.memoryId)}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
