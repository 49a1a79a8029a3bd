import { render } from "preact";
import { App } from "./app.js";
import { ActionRunner } from "./session/action-runner.js";
import { ActivityTracker } from "./session/activity-tracker.js";
import { ChipStore } from "./session/chip-store.js";
import { openSolSession } from "./session/sol-session.js";
import { loadApiKey } from "./storage/local-settings.js";
import { TelemetryStore } from "./telemetry/telemetry-store.js";
import "./styles.css";

async function boot(root: HTMLElement): Promise<void> {
  const telemetry = new TelemetryStore();
  telemetry.expose(window);
  telemetry.watchOtherTabs(window);
  const session = await openSolSession({ apiKey: loadApiKey(), appVersion: "0.1.0" });
  const chips = new ChipStore(telemetry);
  chips.watchOtherTabs(window);
  const runner = new ActionRunner(chips, session);
  const activity = new ActivityTracker(document);
  render(<App env={{ session, chips, runner, activity, telemetry }} />, root);
}

const root = document.getElementById("app");
if (root) {
  boot(root).catch((err: unknown) => {
    root.textContent = `SolServer could not start: ${err instanceof Error ? err.message : String(err)}`;
  });
}
