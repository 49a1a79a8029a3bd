import { useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useDialogFocus } from "../hooks/use-dialog-focus.js";
import { loadApiKey, saveApiKey } from "../storage/local-settings.js";
import { DriverBlocksSettings } from "./driver-blocks-settings.js";
import { TelemetryTable } from "./telemetry-table.js";

/** API key (sent as `Authorization: Bearer`), the current thread id, the approved rules and local telemetry. */
export function SettingsPanel({ threadId, onClose }: { threadId: string; onClose(): void }) {
  const { session } = useAppEnv();
  const [apiKey, setApiKey] = useState(loadApiKey() ?? "");
  const [saved, setSaved] = useState(false);
  const panel = useDialogFocus<HTMLElement>(onClose);
  return (
    <aside ref={panel} class="panel settings" role="dialog" aria-label="Settings" tabIndex={-1}>
      <header class="panel-head">
        <h2>Settings</h2>
        <button type="button" class="btn btn-small" onClick={onClose}>
          Close
        </button>
      </header>
      <form
        class="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          const key = apiKey.trim();
          saveApiKey(key);
          session.setApiKey(key.length > 0 ? key : null);
          setSaved(true);
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder="Optional"
          onInput={(e) => {
            setApiKey(e.currentTarget.value);
            setSaved(false);
          }}
        />
        <button type="submit" class="btn btn-small">
          Save key
        </button>
        {saved && <span role="status">Saved.</span>}
      </form>
      <p class="hint">
        Thread <code>{threadId}</code>
        {session.durable ? "" : " · messages are kept in memory only (no IndexedDB)"}
      </p>
      <DriverBlocksSettings />
      <TelemetryTable />
    </aside>
  );
}
