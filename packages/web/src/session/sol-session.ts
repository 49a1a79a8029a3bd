import {
  type ActionDeferral,
  type ActionExecution,
  type ActionState,
  type DriverBlockView,
  IndexedDbQueueStore,
  type Memory,
  MemoryQueueStore,
  type QueueStore,
  randomId,
  SolClient,
  SolClientError,
  streamingSend,
  type TraceRun,
  TransmissionQueue,
} from "@solserver/client";
import type { ThreadMessage, ThreadSummary } from "@solserver/core";
import { LiveReplies } from "./live-replies.js";
import { watchReconnect } from "./reconnect-watch.js";
import { browserTimeZone } from "./time-zone.js";

/** The web client's only door to the server: the SDK's SolClient and TransmissionQueue. */
export interface SolSession {
  readonly queue: TransmissionQueue;
  /** Replies streaming in, by transmission id, until their transmission succeeded. */
  readonly live: LiveReplies;
  /** False when IndexedDB was unavailable and messages live in memory only. */
  readonly durable: boolean;
  /** Changes the API key for every later request (queued messages included). */
  setApiKey(apiKey: string | null): void;
  /** Queues a chat message; it appears at once and is delivered with retries. */
  send(threadId: string, message: string): void;
  /** Sends a failed message again (same requestId, fresh attempt budget). */
  retrySend(transmissionId: string): Promise<void>;
  executeAction(actionId: string, requestId: string): Promise<ActionExecution>;
  getAction(actionId: string): Promise<ActionState>;
  /** "Not now" on the server (`POST /v1/actions/:actionId/defer`). */
  deferAction(actionId: string): Promise<ActionDeferral>;
  getTrace(traceRunId: string): Promise<TraceRun>;
  /** The tenant's threads on the server, latest activity first (`GET /v1/threads`). */
  listThreads(): Promise<ThreadSummary[]>;
  /** A thread's stored messages (`GET /v1/threads/:id/messages`), for threads not in the local queue. */
  listServerMessages(threadId: string): Promise<ThreadMessage[]>;
  /** Deletes a thread on the server (messages, memento, checkpoints). */
  deleteThread(threadId: string): Promise<void>;
  /** The tenant's memories, ranked by `q` when given, else newest first. */
  listMemories(q: string): Promise<Memory[]>;
  deleteMemory(memoryId: string): Promise<void>;
  /** The Driver Blocks the user approved (`GET /v1/driver-blocks`). */
  listDriverBlocks(): Promise<DriverBlockView[]>;
  setDriverBlockEnabled(blockId: string, enabled: boolean): Promise<void>;
  deleteDriverBlock(blockId: string): Promise<void>;
  /** A fresh request_id for an execute attempt. */
  newRequestId(): string;
}

export interface SolSessionOptions {
  readonly apiKey: string | null;
  /** Server origin; "" is the page's own origin. */
  readonly baseUrl?: string;
  readonly appVersion?: string;
}

function makeClient(baseUrl: string, apiKey: string | null): SolClient {
  return new SolClient({ baseUrl, ...(apiKey ? { apiKey } : {}) });
}

async function openStore(): Promise<{ store: QueueStore; durable: boolean }> {
  const store = new IndexedDbQueueStore({ dbName: "solserver-web" });
  try {
    await store.load();
    return { store, durable: true };
  } catch {
    // Private windows and locked-down browsers: keep chatting, without surviving a reload.
    return { store: new MemoryQueueStore(), durable: false };
  }
}

/** Opens the local queue store, starts the queue and returns the session. */
export async function openSolSession(options: SolSessionOptions): Promise<SolSession> {
  const baseUrl = options.baseUrl ?? "";
  let client = makeClient(baseUrl, options.apiKey);
  const { store, durable } = await openStore();
  const live = new LiveReplies();
  // Deliveries stream (`Accept: text/event-stream`) so the reply grows as the model writes it; the
  // queue still owns retries and idempotency, and keeps the final response as before.
  const stream = streamingSend(
    { chatStream: (packet, call) => client.chatStream(packet, call) },
    (event, transmission) => live.apply(transmission.transmissionId, event),
  );
  const queue = new TransmissionQueue({
    send: (packet, context) => {
      live.begin(context.transmission.transmissionId);
      return stream(packet, context);
    },
    store,
    // A few quick tries, then the message shows as failed with a Retry button; it is sent again by
    // itself once the browser is back online.
    maxAttempts: 3,
    backoff: { baseMs: 800, maxMs: 5_000 },
    onError: (err) => console.error("[sol] queue:", err),
  });
  queue.subscribe((change) => {
    if (change.kind === "transmission" && change.transmission.status === "succeeded") {
      live.end(change.transmission.transmissionId);
    }
  });
  await queue.start();
  // The queue resumes by itself on the browser's `online` event; a page opened while online also
  // retries messages that an earlier visit could not send for want of a network.
  if (typeof navigator === "undefined" || navigator.onLine !== false) {
    void queue.resume().catch((err: unknown) => console.error("[sol] queue:", err));
  }
  // The server going away leaves the browser online: look for it coming back while a message waits.
  watchReconnect(queue, () => client.healthz());
  const appMeta = {
    client: "solserver-web",
    ...(options.appVersion ? { appVersion: options.appVersion } : {}),
  };
  return {
    queue,
    live,
    durable,
    setApiKey(apiKey) {
      client = makeClient(baseUrl, apiKey);
    },
    send(threadId, message) {
      // The zone is read per message: a laptop that travelled sends where it is now.
      const timezone = browserTimeZone();
      queue.enqueue({ threadId, message, meta: { ...appMeta, ...(timezone ? { timezone } : {}) } });
    },
    retrySend: (transmissionId) => queue.retry(transmissionId),
    executeAction: (actionId, requestId) =>
      client.executeAction({ action_id: actionId, request_id: requestId }),
    getAction: (actionId) => client.getAction(actionId),
    deferAction: (actionId) => client.deferAction(actionId),
    getTrace: (traceRunId) => client.getTrace(traceRunId),
    listThreads: async () => (await client.listThreads({ limit: 50 })).threads,
    listServerMessages: async (threadId) => (await client.listMessages(threadId)).messages,
    // A thread the server never stored (nothing was delivered yet) is as gone as a deleted one.
    deleteThread: (threadId) =>
      client.deleteThread(threadId).catch((err: unknown) => {
        if (!(err instanceof SolClientError && err.status === 404)) throw err;
      }),
    listMemories: async (q) =>
      (await client.listMemories(q.trim() === "" ? { limit: 50 } : { q, limit: 50 })).memories,
    deleteMemory: (memoryId) => client.deleteMemory(memoryId),
    listDriverBlocks: () => client.listDriverBlocks(),
    setDriverBlockEnabled: async (blockId, enabled) => {
      await client.setDriverBlockEnabled(blockId, enabled);
    },
    deleteDriverBlock: (blockId) => client.deleteDriverBlock(blockId),
    newRequestId: () => randomId("req"),
  };
}
