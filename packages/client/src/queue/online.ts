// Connectivity: where a browser announces that the network is back, and which failures it cures.

/** The global event target that fires `online` (browsers, workers); undefined in Node. */
export function onlineEvents(): Pick<EventTarget, "addEventListener" | "removeEventListener"> | undefined {
  const target = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
  return typeof target.addEventListener === "function" && typeof target.removeEventListener === "function"
    ? (globalThis as unknown as EventTarget)
    : undefined;
}

/** Failures that say the network was down, which `resume()` retries once connectivity is back. */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set(["network_error", "timeout"]);
