import type { AbortSignalLike } from "@solserver/core";

/** One HTTP attempt's abort wiring: its own timeout, linked to the caller's signal. */
export interface AttemptControl {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  readonly callerAborted: boolean;
  /** Restarts the timeout (streams: time allowed until the next chunk). */
  touch(): void;
  dispose(): void;
}

/** Starts an attempt that aborts after `timeoutMs` or when `caller` aborts, whichever comes first. */
export function startAttempt(caller: AbortSignalLike | undefined, timeoutMs: number): AttemptControl {
  const controller = new AbortController();
  let timedOut = false;
  let callerAborted = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  };
  const onCallerAbort = () => {
    callerAborted = true;
    controller.abort(new Error("aborted by the caller"));
  };
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener("abort", onCallerAbort);
  arm();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get callerAborted() {
      return callerAborted;
    },
    touch: () => {
      if (!controller.signal.aborted) arm();
    },
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onCallerAbort);
    },
  };
}
