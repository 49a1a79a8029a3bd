import { SolClientError } from "./errors.js";

/** Settles with `work`, or rejects with `aborted` as soon as `signal` aborts (work may ignore its signal). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SolClientError("aborted", "Stopped before the work finished."));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
