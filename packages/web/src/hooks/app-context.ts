import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ActionRunner } from "../session/action-runner.js";
import type { ActivityTracker } from "../session/activity-tracker.js";
import type { ChipStore } from "../session/chip-store.js";
import type { SolSession } from "../session/sol-session.js";
import type { TelemetryStore } from "../telemetry/telemetry-store.js";

/** Everything the components share: the SDK session, chip decisions, activity, telemetry. */
export interface AppEnv {
  readonly session: SolSession;
  readonly chips: ChipStore;
  readonly runner: ActionRunner;
  readonly activity: ActivityTracker;
  readonly telemetry: TelemetryStore;
}

export const AppEnvContext = createContext<AppEnv | null>(null);

/** The shared environment; components only render inside the App. */
export function useAppEnv(): AppEnv {
  const env = useContext(AppEnvContext);
  if (env === null) throw new Error("useAppEnv outside <AppEnvContext.Provider>");
  return env;
}
