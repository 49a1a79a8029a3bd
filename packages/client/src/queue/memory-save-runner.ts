import { untilAborted } from "../abort.js";
import { SolClientError, toSolClientError } from "../errors.js";
import type { Memory, MemorySaveInput } from "../http/memory-responses.js";
import { memoryResponses } from "../http/memory-responses.js";
import { checkResponse } from "../http/transport.js";
import type { QueuedMemorySave, RecordedError } from "../records.js";
import { retryDelayMs } from "./backoff.js";
import { NETWORK_ERROR_CODES } from "./online.js";
import type { ResolvedQueueOptions } from "./queue-options.js";
import type { QueueState } from "./queue-state.js";

/** Longest single timer; a later retry is reached through several. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the runner needs from its queue: saving the snapshot and telling it something settled. */
export interface MemorySaveHost {
  /** Resolves once the current state is saved (rejects when the store fails). */
  readonly save: () => Promise<void>;
  /** A save that reports its failure instead of throwing. */
  readonly persist: () => Promise<void>;
  readonly settle: () => void;
}

/**
 * Sends queued memory saves one at a time in enqueue order, with the queue's backoff and attempt
 * budget. A save is written to the store before its first try, and keeps its `requestId` across
 * tries and restarts, so the server replays rather than stores it twice.
 */
export class MemorySaveRunner {
  private readonly tasks = new Set<Promise<void>>();
  private controller: AbortController | null = null;
  private running = false;
  private nextSeq = 0;
  private wake: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly state: QueueState,
    private readonly options: ResolvedQueueOptions,
    private readonly host: MemorySaveHost,
  ) {}

  /** Saves queued or being sent. */
  get busy(): number {
    let n = 0;
    for (const save of this.state.memorySaves.values())
      if (save.status === "queued" || save.status === "sending") n += 1;
    return n;
  }

  /** After a load: a save a crash left `sending` is queued again (same requestId). True when any was. */
  recover(): boolean {
    const at = this.now();
    let recovered = false;
    for (const save of this.state.orderedMemorySaves()) {
      this.nextSeq = Math.max(this.nextSeq, save.seq + 1);
      if (save.status !== "sending") continue;
      this.state.putMemorySave({ ...save, status: "queued", nextAttemptAt: null, updatedAt: at });
      recovered = true;
    }
    return recovered;
  }

  /** Queues a memory save; its record is stored before the first try. */
  enqueue(input: MemorySaveInput): QueuedMemorySave {
    if (this.options.sendMemorySave === undefined) {
      throw new SolClientError(
        "invalid_input",
        "Memory saves need a client with saveMemory() or a sendMemorySave option.",
      );
    }
    if (typeof input.text !== "string" || input.text.length === 0) {
      throw new SolClientError("invalid_input", "A memory save needs a non-empty text.");
    }
    const requestId = input.requestId ?? this.options.ids("req");
    const at = this.now();
    const save: QueuedMemorySave = {
      saveId: this.options.ids("mem"),
      requestId,
      // A JSON round trip keeps only what every store can hold and load again.
      body: JSON.parse(JSON.stringify({ ...input, requestId })) as QueuedMemorySave["body"],
      status: "queued",
      seq: this.nextSeq++,
      createdAt: at,
      updatedAt: at,
      failuresInRound: 0,
      nextAttemptAt: null,
      lastError: null,
    };
    this.state.putMemorySave(save);
    return save;
  }

  start(): void {
    this.running = true;
    this.pump();
  }

  /** Stops sending; an in-flight try is aborted and queued again. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.wake !== undefined) clearTimeout(this.wake);
    this.wake = undefined;
    this.controller?.abort();
    await Promise.allSettled([...this.tasks]);
  }

  /** Connectivity is back: waiting saves are tried now, and saves failed by the network queued again. */
  resume(): void {
    const at = this.now();
    for (const save of this.state.orderedMemorySaves()) {
      if (save.status === "queued" && save.nextAttemptAt !== null && !this.heldByServer(save)) {
        this.state.putMemorySave({ ...save, nextAttemptAt: null, updatedAt: at });
      } else if (save.status === "failed" && NETWORK_ERROR_CODES.has(save.lastError?.code ?? "")) {
        this.state.putMemorySave({
          ...save,
          status: "queued",
          failuresInRound: 0,
          nextAttemptAt: null,
          updatedAt: at,
        });
      }
    }
  }

  /** Starts the oldest queued save when it is due and none is in flight. */
  pump(): void {
    if (!this.running || this.controller !== null) return;
    if (this.wake !== undefined) clearTimeout(this.wake);
    this.wake = undefined;
    const head = this.state.orderedMemorySaves().find((save) => save.status === "queued");
    if (head === undefined) return;
    const now = this.options.clock.now();
    if (head.nextAttemptAt !== null && head.nextAttemptAt > now) {
      this.wake = setTimeout(() => this.pump(), Math.min(MAX_TIMER_MS, head.nextAttemptAt - now));
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    const task = this.attempt(head, controller).finally(() => {
      this.controller = null;
      this.tasks.delete(task);
      void this.host.persist();
      this.pump();
      this.host.settle();
    });
    this.tasks.add(task);
  }

  private async attempt(queued: QueuedMemorySave, controller: AbortController): Promise<void> {
    const sending: QueuedMemorySave = { ...queued, status: "sending", updatedAt: this.now() };
    this.state.putMemorySave(sending);
    try {
      // The save must be durable before the server can see its requestId.
      await this.host.save();
    } catch {
      this.retryLater(sending, { code: "store_failed", message: "The queue store failed." });
      return;
    }
    let memory: Memory;
    try {
      if (controller.signal.aborted) throw new SolClientError("aborted", "stopped");
      const send = this.options.sendMemorySave!;
      const result = await untilAborted(send(sending.body, { signal: controller.signal }), controller.signal);
      memory = checkResponse(result, memoryResponses.memory, "sendMemorySave");
    } catch (err) {
      if (controller.signal.aborted) {
        this.state.putMemorySave({ ...sending, status: "queued", updatedAt: this.now() });
      } else {
        this.failed(sending, toSolClientError(err));
      }
      return;
    }
    this.state.putMemorySave({
      ...sending,
      status: "succeeded",
      memory,
      lastError: null,
      updatedAt: this.now(),
    });
  }

  private failed(save: QueuedMemorySave, error: SolClientError): void {
    const { status, retryAfterMs } = error;
    const recorded: RecordedError = {
      code: error.code,
      message: error.message.slice(0, 500),
      ...(status !== undefined && Number.isFinite(status) ? { status } : {}),
      ...(retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
        ? { retryAfterMs }
        : {}),
    };
    const failures = save.failuresInRound + 1;
    if (!error.retryable || failures >= this.options.maxAttempts) {
      this.state.putMemorySave(
        {
          ...save,
          status: "failed",
          failuresInRound: failures,
          nextAttemptAt: null,
          lastError: recorded,
          updatedAt: this.now(),
        },
        error,
      );
      return;
    }
    const delay = retryDelayMs(failures, this.options.backoff, this.options.random, error.retryAfterMs);
    this.state.putMemorySave(
      {
        ...save,
        status: "queued",
        failuresInRound: failures,
        nextAttemptAt: this.options.clock.now() + delay,
        lastError: recorded,
        updatedAt: this.now(),
      },
      error,
    );
  }

  /** Not a send failure (no attempt spent): the save waits a backoff step and is tried again. */
  private retryLater(save: QueuedMemorySave, error: RecordedError): void {
    const delay = retryDelayMs(save.failuresInRound + 1, this.options.backoff, this.options.random);
    this.state.putMemorySave({
      ...save,
      status: "queued",
      nextAttemptAt: this.options.clock.now() + delay,
      lastError: error,
      updatedAt: this.now(),
    });
  }

  /** True while a server's Retry-After on the last failure has not passed. */
  private heldByServer(save: QueuedMemorySave): boolean {
    const wait = save.lastError?.retryAfterMs;
    return wait !== undefined && Date.parse(save.updatedAt) + wait > this.options.clock.now();
  }

  private now(): string {
    return new Date(this.options.clock.now()).toISOString();
  }
}
