import type { Clock, Issue } from "@solserver/core";
import { isSolError } from "@solserver/core";
import { untilAborted } from "../abort.js";
import { SolClientError } from "../errors.js";
import type { QueueState } from "../queue/queue-state.js";
import type { CaptureRecord } from "../records.js";
import { asJson, describeIssues } from "../validate.js";
import type { CaptureEvent } from "./capture-machine.js";
import { transitionCapture } from "./capture-machine.js";

/** What a processor derives from an attachment. */
export interface CaptureOutput {
  readonly dataDescription?: string;
  readonly data?: unknown;
}

/** Derives data from attachments (flow pack S3); throwing marks the capture failed. */
export interface CaptureProcessor {
  /** Kinds this processor handles; all kinds when omitted. */
  readonly kinds?: readonly string[];
  process(capture: CaptureRecord, context: { readonly signal: AbortSignal }): Promise<CaptureOutput>;
}

interface Waiter {
  readonly resolve: (capture: CaptureRecord) => void;
  readonly reject: (err: unknown) => void;
}

/** Runs pending captures through the registered processors, off the send path. */
export class CaptureRunner {
  private readonly processors = new Set<CaptureProcessor>();
  private readonly inflight = new Map<string, AbortController>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private running = false;

  constructor(
    private readonly state: QueueState,
    private readonly clock: Clock,
    private readonly persist: () => void,
    private readonly onIdle: () => void,
  ) {
    state.subscribe((change) => {
      if (change.kind === "capture") this.settleWaiters(change.capture);
    });
  }

  /** Captures being processed right now. */
  get busy(): number {
    return this.inflight.size;
  }

  /** Adds a processor and starts pending captures it handles; returns the function that removes it. */
  register(processor: CaptureProcessor): () => void {
    this.processors.add(processor);
    this.pump();
    return () => this.processors.delete(processor);
  }

  /** Starts processing pending captures. */
  start(): void {
    this.running = true;
    this.pump();
  }

  /** Aborts running processors (their captures stay pending) and waits for them. */
  async stop(): Promise<void> {
    this.running = false;
    for (const controller of this.inflight.values()) controller.abort();
    await Promise.allSettled([...this.tasks]);
  }

  /** Applies an event; invalid ones throw invalid_transition. */
  apply(captureId: string, event: CaptureEvent): void {
    const capture = this.state.captures.get(captureId);
    if (capture === undefined) throw new SolClientError("not_found", `No capture ${captureId}.`);
    const result = transitionCapture(capture, event);
    if (!result.ok)
      throw new SolClientError("invalid_transition", result.issues[0]?.message ?? "invalid transition");
    this.state.putCapture(result.value);
    this.persist();
  }

  /** Resolves when the capture is ready; rejects with capture_failed when it fails. */
  waitFor(captureId: string, signal?: AbortSignal): Promise<CaptureRecord> {
    const capture = this.state.captures.get(captureId);
    if (capture === undefined)
      return Promise.reject(new SolClientError("not_found", `No capture ${captureId}.`));
    if (capture.status === "ready") return Promise.resolve(capture);
    if (capture.status === "failed") return Promise.reject(failedError(capture));
    return new Promise<CaptureRecord>((resolve, reject) => {
      const set = this.waiters.get(captureId) ?? new Set<Waiter>();
      const waiter: Waiter = {
        resolve: (c) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(c);
        },
        reject: (err) => {
          signal?.removeEventListener("abort", onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        set.delete(waiter);
        reject(new SolClientError("aborted", `Stopped waiting for capture ${captureId}.`));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      set.add(waiter);
      this.waiters.set(captureId, set);
    });
  }

  /** Starts every pending capture that has a processor and is not already running. */
  pump(): void {
    if (!this.running) return;
    for (const capture of this.state.captures.values()) {
      if (capture.status !== "pending" || this.inflight.has(capture.captureId)) continue;
      const processor = [...this.processors].find(
        (p) => p.kinds === undefined || p.kinds.includes(capture.kind),
      );
      if (processor === undefined) continue;
      const controller = new AbortController();
      this.inflight.set(capture.captureId, controller);
      const task = this.process(capture, processor, controller).finally(() => {
        this.inflight.delete(capture.captureId);
        this.tasks.delete(task);
        this.onIdle();
      });
      this.tasks.add(task);
    }
  }

  private async process(capture: CaptureRecord, processor: CaptureProcessor, controller: AbortController) {
    let event: CaptureEvent;
    try {
      const output = await untilAborted(
        processor.process(capture, { signal: controller.signal }),
        controller.signal,
      );
      event = { type: "processed", at: this.clock.now(), ...storedOutput(output) };
    } catch (err) {
      const error = isSolError(err)
        ? { code: err.code, message: err.message }
        : { code: "capture_failed", message: err instanceof Error ? err.message : String(err) };
      event = { type: "process_failed", at: this.clock.now(), error };
    }
    // A stopped queue leaves the capture pending; it is processed again on the next start.
    if (controller.signal.aborted) return;
    const current = this.state.captures.get(capture.captureId);
    if (current?.status === "pending") this.apply(capture.captureId, event);
  }

  private settleWaiters(capture: CaptureRecord): void {
    if (capture.status === "pending") return;
    const set = this.waiters.get(capture.captureId);
    if (set === undefined) return;
    this.waiters.delete(capture.captureId);
    for (const waiter of set) {
      if (capture.status === "ready") waiter.resolve(capture);
      else waiter.reject(failedError(capture));
    }
  }
}

/**
 * A processor's output as kept with its capture (`data` in its JSON form: every store must save it
 * and load it again); throws capture_failed when `dataDescription` is no string or `data` no JSON.
 */
function storedOutput(output: CaptureOutput | undefined): CaptureOutput {
  if (output === undefined || output === null) return {};
  if (typeof output !== "object") {
    throw new SolClientError(
      "capture_failed",
      "The processor returned no { dataDescription?, data? } object.",
    );
  }
  const issues: Issue[] = [];
  if (output.dataDescription !== undefined && typeof output.dataDescription !== "string") {
    issues.push({ code: "invalid_type", message: "must be a string", path: ["dataDescription"] });
  }
  const data = output.data === undefined ? undefined : asJson(output.data, ["data"]);
  if (data !== undefined && !data.ok) issues.push(...data.issues);
  if (issues.length > 0) {
    throw new SolClientError(
      "capture_failed",
      `The processor's output cannot be stored: ${describeIssues(issues)}.`,
    );
  }
  return {
    ...(output.dataDescription === undefined ? {} : { dataDescription: output.dataDescription }),
    ...(data?.ok ? { data: data.value } : {}),
  };
}

function failedError(capture: CaptureRecord): SolClientError {
  return new SolClientError(
    "capture_failed",
    `Capture ${capture.captureId} failed: ${capture.error?.message ?? "unknown"}`,
    {
      details: { captureId: capture.captureId, error: capture.error },
    },
  );
}
