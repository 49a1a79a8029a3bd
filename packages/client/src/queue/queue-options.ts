import type { ChatResponse, Clock, IdGenerator, PacketInputBody } from "@solserver/core";
import type { CaptureProcessor } from "../captures/capture-runner.js";
import { SolClientError } from "../errors.js";
import type { Memory } from "../http/memory-responses.js";
import type { SolClient } from "../http/sol-client.js";
import { randomId } from "../ids.js";
import type { QueuedMemorySave, QueuedTransmission } from "../records.js";
import type { QueueStore } from "../store/queue-store.js";
import type { BackoffConfig } from "./backoff.js";
import { backoffProblems, DEFAULT_BACKOFF } from "./backoff.js";
import type { QueueListener } from "./queue-state.js";

/**
 * Delivers one packet; throw (ideally a SolClientError) to fail the try. The result is checked
 * against ChatResponse: a mismatch fails the try with invalid_response.
 */
export type SendChat = (
  packet: PacketInputBody,
  context: { readonly signal: AbortSignal; readonly transmission: QueuedTransmission },
) => Promise<ChatResponse>;

/** Delivers one memory save (`POST /v1/memories`); throw to fail the try. */
export type SendMemorySave = (
  body: QueuedMemorySave["body"],
  context: { readonly signal: AbortSignal },
) => Promise<Memory>;

export interface TransmissionQueueOptions {
  /** Sends through `client.chat` (and memory saves through `client.saveMemory`); give this or `send`. */
  readonly client?: Pick<SolClient, "chat"> & Partial<Pick<SolClient, "saveMemory">>;
  readonly send?: SendChat;
  /** Delivers queued memory saves; defaults to `client.saveMemory`. */
  readonly sendMemorySave?: SendMemorySave;
  readonly store: QueueStore;
  readonly clock?: Clock;
  /** Uniform in [0, 1), for backoff jitter. */
  readonly random?: () => number;
  /** Makes local ids (`req`, `tx`, `msg`, `pkt`, `att`, `cap` prefixes). */
  readonly ids?: IdGenerator;
  readonly backoff?: Partial<BackoffConfig>;
  /** Tries per round (enqueue or manual retry) before a transmission fails. Default 5. */
  readonly maxAttempts?: number;
  /** Threads sending at the same time. Default 4. */
  readonly concurrency?: number;
  readonly onChange?: QueueListener;
  /** Persistence failures and listener errors. Default: console.error. */
  readonly onError?: (error: unknown) => void;
  readonly captureProcessor?: CaptureProcessor;
}

export interface ResolvedQueueOptions {
  readonly send: SendChat;
  /** Undefined when neither `sendMemorySave` nor a client with `saveMemory` was given. */
  readonly sendMemorySave: SendMemorySave | undefined;
  readonly store: QueueStore;
  readonly clock: Clock;
  readonly random: () => number;
  readonly ids: IdGenerator;
  readonly backoff: BackoffConfig;
  readonly maxAttempts: number;
  readonly concurrency: number;
  readonly onChange: QueueListener | undefined;
  readonly onError: (error: unknown) => void;
  readonly captureProcessor: CaptureProcessor | undefined;
}

const DEFAULTS = {
  clock: { now: () => Date.now() },
  random: Math.random,
  ids: randomId,
  maxAttempts: 5,
  concurrency: 4,
  onError: (error: unknown) => console.error("[@solserver/client] queue:", error),
} as const;

/** Applies defaults and checks the options once; throws invalid_input naming each bad field. */
export function resolveQueueOptions(options: TransmissionQueueOptions): ResolvedQueueOptions {
  const merged = { ...DEFAULTS, ...options };
  const backoff = Object.freeze({ ...DEFAULT_BACKOFF, ...options.backoff });
  const problems = backoffProblems(backoff);
  if ((options.client === undefined) === (options.send === undefined))
    problems.push("give exactly one of client, send");
  if (typeof options.store?.load !== "function" || typeof options.store?.save !== "function") {
    problems.push("store must implement load() and save()");
  }
  if (!Number.isInteger(merged.maxAttempts) || merged.maxAttempts < 1)
    problems.push("maxAttempts must be an integer >= 1");
  if (!Number.isInteger(merged.concurrency) || merged.concurrency < 1)
    problems.push("concurrency must be an integer >= 1");
  if (problems.length > 0) {
    throw new SolClientError("invalid_input", `Invalid TransmissionQueue options: ${problems.join("; ")}`, {
      details: { problems },
    });
  }
  const client = options.client;
  const send: SendChat = options.send ?? ((packet, { signal }) => client!.chat(packet, { signal }));
  const saveMemory = client?.saveMemory?.bind(client);
  const sendMemorySave: SendMemorySave | undefined =
    options.sendMemorySave ??
    (saveMemory === undefined
      ? undefined
      : async (body, { signal }) => (await saveMemory(body, { signal })).memory);
  return Object.freeze({
    send,
    sendMemorySave,
    store: options.store,
    clock: merged.clock,
    random: merged.random,
    ids: merged.ids,
    backoff,
    maxAttempts: merged.maxAttempts,
    concurrency: merged.concurrency,
    onChange: options.onChange,
    onError: merged.onError,
    captureProcessor: options.captureProcessor,
  });
}
