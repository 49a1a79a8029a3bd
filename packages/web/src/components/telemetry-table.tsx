import { useCallback } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useSubscription } from "../hooks/use-subscription.js";
import { decisionTimeSummary, TELEMETRY_COUNTERS } from "../telemetry/telemetry.js";

/** The local, content-free breakpoint counters, with a reset. */
export function TelemetryTable() {
  const { telemetry } = useAppEnv();
  const subscribe = useCallback((listener: () => void) => telemetry.subscribe(listener), [telemetry]);
  const snapshot = useSubscription(subscribe, () => telemetry.snapshot());
  const times = decisionTimeSummary(snapshot);
  return (
    <section aria-label="Local telemetry">
      <h3>Local telemetry</h3>
      <p class="hint">Counts only, kept in this browser.</p>
      <table class="telemetry">
        <tbody>
          {TELEMETRY_COUNTERS.map((key) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>{snapshot[key]}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">time_to_decision_ms</th>
            <td>{times.medianMs === null ? "—" : `median ${times.medianMs} ms over ${times.count}`}</td>
          </tr>
        </tbody>
      </table>
      <button type="button" class="btn btn-small" onClick={() => telemetry.reset()}>
        Reset telemetry
      </button>
    </section>
  );
}
