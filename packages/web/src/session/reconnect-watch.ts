import type { TransmissionQueue } from "@solserver/client";

/** Failures that say the server could not be reached: the ones the queue's `resume()` sends again. */
const UNREACHABLE: ReadonlySet<string> = new Set(["network_error", "timeout"]);

export interface ReconnectWatchOptions {
  /** Wait before the first look at the server after a message is stranded. */
  readonly firstDelayMs?: number;
  /** The wait doubles after each look that does not deliver, up to this. */
  readonly maxDelayMs?: number;
  /** False while the browser says it is offline (its `online` event resumes the queue then). */
  readonly isOnline?: () => boolean;
}

type ReconnectQueue = Pick<TransmissionQueue, "subscribe" | "listTransmissions" | "resume">;

/**
 * The browser's `online` event never fires when it is the server that went away (a restart, a
 * deploy): a message whose quick tries ran out would then wait for a reload or a Retry send tap.
 * While such a message is stranded, this asks the server whether it answers (`probe`, e.g.
 * `GET /healthz`), with a growing wait, and resumes the queue once it does (same requestIds, so
 * nothing is sent twice). Returns the function that stops watching.
 */
export function watchReconnect(
  queue: ReconnectQueue,
  probe: () => Promise<unknown>,
  options: ReconnectWatchOptions = {},
): () => void {
  const firstDelayMs = options.firstDelayMs ?? 3_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const isOnline = options.isOnline ?? (() => typeof navigator === "undefined" || navigator.onLine !== false);
  let delayMs = firstDelayMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const stranded = () =>
    queue
      .listTransmissions({ status: "failed" })
      .some((t) => t.lastError !== null && UNREACHABLE.has(t.lastError.code));

  const look = async () => {
    timer = undefined;
    if (stopped || !stranded()) return;
    if (isOnline()) {
      try {
        await probe();
        await queue.resume();
      } catch {
        // Still unreachable: look again later.
      }
    }
    delayMs = Math.min(maxDelayMs, delayMs * 2);
    schedule();
  };

  const schedule = () => {
    if (stopped || timer !== undefined || !stranded()) return;
    timer = setTimeout(() => void look(), delayMs);
  };

  const unsubscribe = queue.subscribe((change) => {
    if (change.kind !== "transmission") return;
    // A delivery shows the server answers again: the next outage starts with a short wait.
    if (change.transmission.status === "succeeded") delayMs = firstDelayMs;
    schedule();
  });
  schedule();
  return () => {
    stopped = true;
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}
