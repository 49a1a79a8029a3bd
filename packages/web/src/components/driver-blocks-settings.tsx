import type { DriverBlockView } from "@solserver/client";
import { useEffect, useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The rules (Driver Blocks) the user approved: what each requires, a switch to turn it off, Delete. */
export function DriverBlocksSettings() {
  const { session } = useAppEnv();
  const [blocks, setBlocks] = useState<DriverBlockView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    session.listDriverBlocks().then(
      (found) => {
        if (!live) return;
        setBlocks(found);
        setError(null);
      },
      (err: unknown) => live && setError(message(err)),
    );
    return () => {
      live = false;
    };
  }, [session, version]);

  const act = async (change: Promise<void>) => {
    try {
      await change;
      setVersion((v) => v + 1);
    } catch (err) {
      setError(message(err));
    }
  };

  return (
    <section class="driver-blocks" aria-label="Rules">
      <h3>Rules</h3>
      {error && <p role="alert">Rules: {error}</p>}
      {blocks !== null && blocks.length === 0 && (
        <p class="hint">No rules yet. Ask for one, e.g. "from now on always end with a summary".</p>
      )}
      <ul class="driver-block-list">
        {(blocks ?? []).map((b) => {
          const name = b.block.title ?? b.id;
          return (
            <li key={b.id} class="driver-block-item" data-block-id={b.id}>
              <label>
                <input
                  type="checkbox"
                  checked={b.enabled}
                  aria-label={`Rule on: ${name}`}
                  onChange={(e) => void act(session.setDriverBlockEnabled(b.id, e.currentTarget.checked))}
                />{" "}
                <span dir="auto">{name}</span> <span class="hint">v{b.version}</span>
              </label>
              <ul class="hint">
                {b.summary.map((line) => (
                  <li key={line} dir="auto">
                    {line}
                  </li>
                ))}
              </ul>
              <button
                type="button"
                class="btn btn-small"
                aria-label={`Delete rule: ${name}`}
                onClick={() => void act(session.deleteDriverBlock(b.id))}
              >
                Delete
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
