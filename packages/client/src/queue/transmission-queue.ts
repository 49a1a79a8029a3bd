import type { ChatResponse, TransmissionStatus } from "@solserver/core";
import { untilAborted } from "../abort.js";
import type { CaptureProcessor } from "../captures/capture-runner.js";
import { CaptureRunner } from "../captures/capture-runner.js";
import { SolClientError, toSolClientError } from "../errors.js";
import type { MemorySaveInput } from "../http/memory-responses.js";
import { responses } from "../http/responses.js";
import { checkResponse } from "../http/transport.js";
import type {
  CaptureRecord,
  LocalMessage,
  QueuedMemorySave,
  QueuedTransmission,
  QueueSnapshot,
  RecordedError,
} from "../records.js";
import { emptySnapshot } from "../records.js";
import { describeIssues } from "../validate.js";
import { retryDelayMs } from "./backoff.js";
import type { EnqueueInput } from "./enqueue-records.js";
import { buildEnqueueRecords } from "./enqueue-records.js";
import { MemorySaveRunner } from "./memory-save-runner.js";
import { NETWORK_ERROR_CODES, onlineEvents } from "./online.js";
import type { ResolvedQueueOptions, TransmissionQueueOptions } from "./queue-options.js";
import { resolveQueueOptions } from "./queue-options.js";
import type { QueueListener } from "./queue-state.js";
import { QueueState } from "./queue-state.js";
import { SnapshotWriter } from "./snapshot-writer.js";
import type { TransmissionEvent } from "./transmission-machine.js";
import { transition } from "./transmission-machine.js";

export interface EnqueueResult {
  readonly localMessageId: string;
  readonly transmissionId: string;
  /** The idempotency key, kept across every retry and restart. */
  readonly requestId: string;
  readonly captureIds: readonly string[];
  /** Resolves once the message and its transmission are in the store. */
  readonly persisted: Promise<void>;
}

/** What `enqueueMemory` returns. */
export interface EnqueueMemoryResult {
  readonly saveId: string;
  /** The idempotency key, kept across every retry and restart. */
  readonly requestId: string;
  /** Resolves once the save is in the store. */
  readonly persisted: Promise<void>;
}

// setTimeout fires at once for delays beyond a signed 32-bit count of milliseconds.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Offline-first delivery of chat messages (flow pack S4): messages exist locally at once, are
 * persisted, then sent in order per thread with retries, backoff and a stable requestId.
 */
export class TransmissionQueue {
  private readonly options: ResolvedQueueOptions;
  private readonly state: QueueState;
  private readonly writer: SnapshotWriter;
  private readonly captures: CaptureRunner;
  private readonly memorySaves: MemorySaveRunner;
  private readonly inflight = new Map<string, AbortController>();
  private readonly deliveries = new Set<Promise<void>>();
  private drainWaiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private loading: Promise<void> | null = null;
  private loaded = false;
  private running = false;
  private nextSeq = 0;
  /** Saves before a try that failed in a row: the store's own backoff (disk full, quota). */
  private storeFailures = 0;
  private wake: ReturnType<typeof setTimeout> | undefined;

  constructor(options: TransmissionQueueOptions) {
    this.options = resolveQueueOptions(options);
    this.state = new QueueState((err) => this.options.onError(err));
    this.writer = new SnapshotWriter(this.options.store, () => this.state.snapshot());
    this.captures = new CaptureRunner(
      this.state,
      this.options.clock,
      () => this.persist(),
      () => this.settle(),
    );
    this.memorySaves = new MemorySaveRunner(this.state, this.options, {
      save: () => this.writer.request(),
      persist: () => this.persist().catch(() => {}),
      settle: () => this.settle(),
    });
    if (this.options.onChange) this.state.subscribe(this.options.onChange);
    if (this.options.captureProcessor) this.captures.register(this.options.captureProcessor);
  }

  /** True between start() and stop(). */
  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Reads the store once. A transmission a crash left in `sending` goes back to queued with the
   * same requestId: the server's idempotency turns the resend into a replay.
   */
  load(): Promise<void> {
    this.loading ??= (async () => {
      const snapshot = (await this.options.store.load()) ?? emptySnapshot();
      this.state.replace(snapshot);
      this.nextSeq = snapshot.transmissions.reduce((max, t) => Math.max(max, t.seq + 1), 0);
      const at = this.options.clock.now();
      let recovered = false;
      for (const t of snapshot.transmissions) {
        if (t.status !== "sending") continue;
        this.apply(t, { type: "interrupt", at });
        recovered = true;
      }
      if (this.memorySaves.recover()) recovered = true;
      this.loaded = true;
      if (recovered) await this.writer.request();
    })().catch((err: unknown) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  /** Loads the store if needed, then sends and processes captures until stop(). */
  async start(): Promise<void> {
    await this.load();
    this.running = true;
    this.captures.start();
    this.memorySaves.start();
    // In a browser (or worker) the queue resumes by itself when connectivity comes back.
    onlineEvents()?.addEventListener("online", this.onOnline);
    this.pump();
  }

  /** Stops sending: in-flight tries are aborted and queued again (same requestId); resolves once saved. */
  async stop(): Promise<void> {
    this.running = false;
    onlineEvents()?.removeEventListener("online", this.onOnline);
    if (this.wake !== undefined) clearTimeout(this.wake);
    this.wake = undefined;
    for (const controller of this.inflight.values()) controller.abort();
    await Promise.allSettled([...this.deliveries]);
    await this.captures.stop();
    await this.memorySaves.stop();
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters)
      w.reject(new SolClientError("aborted", "The queue was stopped before it drained."));
    if (this.loaded) await this.writer.request();
  }

  /** Resolves once nothing is queued, sending or being processed, and that state is saved. */
  async drain(): Promise<void> {
    if (!this.running) throw new SolClientError("invalid_transition", "Start the queue before drain().");
    await new Promise<void>((resolve, reject) => {
      this.drainWaiters.push({ resolve, reject });
      this.settle();
    });
    await this.writer.request();
  }

  /** Creates the local message (and its captures) at once and queues its transmission. */
  enqueue(input: EnqueueInput): EnqueueResult {
    if (!this.loaded)
      throw new SolClientError("invalid_transition", "Call load() or start() before enqueue().");
    const built = buildEnqueueRecords(input, this.nextSeq, this.options.clock.now(), this.options.ids);
    if (!built.ok) {
      throw new SolClientError("invalid_input", `Invalid message: ${describeIssues(built.issues)}`, {
        details: { issues: built.issues },
      });
    }
    const { message, captures, transmission } = built.value;
    if ([...this.state.transmissions.values()].some((t) => t.requestId === transmission.requestId)) {
      throw new SolClientError(
        "idempotency_conflict",
        `requestId ${transmission.requestId} is already queued.`,
      );
    }
    this.nextSeq += 1;
    this.state.putMessage(message);
    for (const capture of captures) this.state.putCapture(capture);
    this.state.putTransmission(transmission);
    const persisted = this.persist();
    this.pump();
    this.captures.pump();
    return {
      localMessageId: message.messageId,
      transmissionId: transmission.transmissionId,
      requestId: transmission.requestId,
      captureIds: message.captureIds,
      persisted,
    };
  }

  /**
   * Queues a memory save (`POST /v1/memories`), offline-first like a chat packet: stored at once,
   * sent in enqueue order with the same backoff, and replayed by the server when resent.
   */
  enqueueMemory(input: MemorySaveInput): EnqueueMemoryResult {
    if (!this.loaded)
      throw new SolClientError("invalid_transition", "Call load() or start() before enqueueMemory().");
    const requestId = input.requestId;
    if (
      requestId !== undefined &&
      [...this.state.memorySaves.values()].some((m) => m.requestId === requestId)
    ) {
      throw new SolClientError("idempotency_conflict", `requestId ${requestId} is already queued.`);
    }
    const save = this.memorySaves.enqueue(input);
    const persisted = this.persist();
    this.memorySaves.pump();
    return { saveId: save.saveId, requestId: save.requestId, persisted };
  }

  /** One queued memory save by id. */
  getMemorySave(saveId: string): QueuedMemorySave | undefined {
    return this.state.memorySaves.get(saveId);
  }

  /** Memory saves in enqueue order. */
  listMemorySaves(): QueuedMemorySave[] {
    return this.state.orderedMemorySaves();
  }

  /** Manual retry of a failed transmission (failed -> queued), with a fresh attempt budget. */
  async retry(transmissionId: string): Promise<void> {
    const t = this.state.transmissions.get(transmissionId);
    if (t === undefined) throw new SolClientError("not_found", `No transmission ${transmissionId}.`);
    this.apply(t, { type: "retry", at: this.options.clock.now() }, undefined, true);
    const persisted = this.persist();
    this.pump();
    await persisted;
  }

  /** The global `online` listener, added by start() and removed by stop(). */
  private readonly onOnline = (): void => {
    if (this.running) this.resume().catch((err: unknown) => this.options.onError(err));
  };

  /**
   * Connectivity is back (a browser's `online` event, say): queued transmissions waiting out a
   * backoff are tried now (never before a server's Retry-After), and failed ones whose last error
   * was the network (network_error, timeout) go back to queued with a fresh attempt budget. Same
   * requestIds, so nothing is sent twice.
   */
  async resume(): Promise<void> {
    const at = this.options.clock.now();
    for (const t of this.state.orderedTransmissions()) {
      if (t.status === "queued") this.apply(t, { type: "wake", at });
      else if (t.status === "failed" && NETWORK_ERROR_CODES.has(t.lastError?.code ?? "")) {
        this.apply(t, { type: "retry", at });
      }
    }
    this.memorySaves.resume();
    const persisted = this.persist();
    this.pump();
    this.memorySaves.pump();
    await persisted;
  }

  /** Manual retry of a failed capture (failed -> pending). */
  async retryCapture(captureId: string): Promise<void> {
    this.captures.apply(captureId, { type: "retry", at: this.options.clock.now() });
    const persisted = this.persist();
    this.captures.pump();
    await persisted;
  }

  /** Adds a CaptureProcessor; returns the function that removes it. */
  registerCaptureProcessor(processor: CaptureProcessor): () => void {
    return this.captures.register(processor);
  }

  /** Gate for an action that needs derived data: resolves when that capture is ready. */
  waitForCapture(captureId: string, options: { readonly signal?: AbortSignal } = {}): Promise<CaptureRecord> {
    return this.captures.waitFor(captureId, options.signal);
  }

  /** Adds a change listener; returns the function that removes it. */
  subscribe(listener: QueueListener): () => void {
    return this.state.subscribe(listener);
  }

  /** One transmission by local id. */
  getTransmission(transmissionId: string): QueuedTransmission | undefined {
    return this.state.transmissions.get(transmissionId);
  }

  /** Transmissions in enqueue order, optionally of one thread and/or status. */
  listTransmissions(
    filter: { readonly threadId?: string; readonly status?: TransmissionStatus } = {},
  ): QueuedTransmission[] {
    return this.state
      .orderedTransmissions()
      .filter(
        (t) =>
          (filter.threadId === undefined || t.threadId === filter.threadId) &&
          (filter.status === undefined || t.status === filter.status),
      );
  }

  /** Local messages (user and assistant) in creation order, optionally of one thread. */
  listMessages(threadId?: string): LocalMessage[] {
    return [...this.state.messages.values()].filter((m) => threadId === undefined || m.threadId === threadId);
  }

  /** One capture by id. */
  getCapture(captureId: string): CaptureRecord | undefined {
    return this.state.captures.get(captureId);
  }

  /** Captures in creation order, optionally of one message. */
  listCaptures(messageId?: string): CaptureRecord[] {
    return [...this.state.captures.values()].filter(
      (c) => messageId === undefined || c.messageId === messageId,
    );
  }

  /** Everything, in the persisted format. */
  snapshot(): QueueSnapshot {
    return this.state.snapshot();
  }

  private apply(
    t: QueuedTransmission,
    event: TransmissionEvent,
    error?: SolClientError,
    strict = false,
  ): void {
    const result = transition(t, event);
    if (result.ok) {
      this.state.putTransmission(result.value, error);
      return;
    }
    const problem = new SolClientError(
      "invalid_transition",
      result.issues[0]?.message ?? "invalid transition",
    );
    if (strict) throw problem;
    this.options.onError(problem);
  }

  private persist(): Promise<void> {
    const saved = this.writer.request();
    saved.catch((err: unknown) => this.options.onError(err));
    return saved;
  }

  /** Starts every due thread head (lowest seq queued, none sending) and sets a timer for the next one. */
  private pump(): void {
    if (!this.running) return;
    if (this.wake !== undefined) clearTimeout(this.wake);
    this.wake = undefined;
    const now = this.options.clock.now();
    this.rebaseFutureStamps(now);
    const heads = new Map<string, QueuedTransmission>();
    const busy = new Set<string>();
    for (const id of this.state.active) {
      const t = this.state.transmissions.get(id)!;
      if (t.status === "sending") busy.add(t.threadId);
      const head = heads.get(t.threadId);
      if (t.status === "queued" && (head === undefined || t.seq < head.seq)) heads.set(t.threadId, t);
    }
    let nextWake = Number.POSITIVE_INFINITY;
    const ready = [...heads.values()]
      .filter((t) => !busy.has(t.threadId))
      .sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || a.seq - b.seq);
    for (const t of ready) {
      const due = t.nextAttemptAt ?? now;
      if (due > now) nextWake = Math.min(nextWake, due);
      else if (this.inflight.size < this.options.concurrency) this.deliver(t, now);
    }
    if (nextWake !== Number.POSITIVE_INFINITY) {
      this.wake = setTimeout(() => this.pump(), Math.min(MAX_TIMER_MS, Math.max(0, nextWake - now)));
    }
    this.settle();
  }

  /** The clock went back since some retries were planned: keep their planned delays from now. */
  private rebaseFutureStamps(now: number): void {
    let moved = false;
    for (const id of this.state.active) {
      const t = this.state.transmissions.get(id)!;
      if (t.status !== "queued" || t.nextAttemptAt === null || !(Date.parse(t.updatedAt) > now)) continue;
      this.apply(t, { type: "rebase", at: now });
      moved = true;
    }
    if (moved) this.persist();
  }

  private deliver(t: QueuedTransmission, at: number): void {
    const result = transition(t, { type: "send", at, attemptId: this.options.ids("att") });
    if (!result.ok) {
      this.options.onError(new SolClientError("invalid_transition", result.issues[0]!.message));
      return;
    }
    const sending = result.value;
    this.state.putTransmission(sending);
    const controller = new AbortController();
    this.inflight.set(t.transmissionId, controller);
    const task = this.attempt(sending, controller).finally(() => {
      this.inflight.delete(t.transmissionId);
      this.deliveries.delete(task);
      this.persist();
      this.pump();
    });
    this.deliveries.add(task);
  }

  private async attempt(t: QueuedTransmission, controller: AbortController): Promise<void> {
    const { clock, send } = this.options;
    try {
      // The transmission must be durable before the server can see its requestId.
      await this.writer.request();
      this.storeFailures = 0;
    } catch {
      // Not a send failure (no attempt spent), but a store that keeps failing is backed off too.
      this.storeFailures += 1;
      const retryAt =
        clock.now() +
        retryDelayMs(t.failuresInRound + this.storeFailures, this.options.backoff, this.options.random);
      this.apply(t, { type: "interrupt", at: clock.now(), retryAt });
      return;
    }
    let response: ChatResponse;
    try {
      if (controller.signal.aborted) throw new SolClientError("aborted", "stopped");
      // A custom send may return anything; the stored response must load again after a restart.
      response = checkResponse(
        await untilAborted(send(t.packet, { signal: controller.signal, transmission: t }), controller.signal),
        responses.chat,
        "send",
      );
      if (response.requestId !== t.requestId) {
        throw new SolClientError("invalid_response", `The response is for requestId ${response.requestId}.`);
      }
    } catch (err) {
      if (controller.signal.aborted) this.apply(t, { type: "interrupt", at: clock.now() });
      else this.failed(t, toSolClientError(err));
      return;
    }
    this.apply(t, { type: "succeed", at: clock.now(), response });
    this.state.putMessage({
      messageId: response.assistant.messageId,
      threadId: t.threadId,
      role: "assistant",
      content: response.assistant.content,
      createdAt: new Date(clock.now()).toISOString(),
      transmissionId: t.transmissionId,
      captureIds: [],
    });
  }

  private failed(t: QueuedTransmission, error: SolClientError): void {
    const { backoff, random, maxAttempts, clock } = this.options;
    // Only finite numbers: JSON stores NaN and Infinity as null, which the next load refuses.
    const { status, retryAfterMs } = error;
    const recorded: RecordedError = {
      code: error.code,
      message: error.message.slice(0, 500),
      ...(status !== undefined && Number.isFinite(status) ? { status } : {}),
      ...(retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
        ? { retryAfterMs }
        : {}),
    };
    this.apply(
      t,
      {
        type: "fail",
        at: clock.now(),
        error: recorded,
        retryable: error.retryable,
        maxAttempts,
        retryDelayMs: retryDelayMs(t.failuresInRound + 1, backoff, random, error.retryAfterMs),
      },
      error,
    );
  }

  private settle(): void {
    if (this.drainWaiters.length === 0) return;
    if (this.state.active.size > 0 || this.inflight.size > 0 || this.captures.busy > 0) return;
    if (this.memorySaves.busy > 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w.resolve();
  }
}
