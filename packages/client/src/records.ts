import type { ChatResponse, PacketInputBody, Transmission } from "@solserver/core";
import type { Memory, MemorySaveInput } from "./http/memory-responses.js";

/** Why the last try of a transmission or capture failed, as kept in the local store. */
export interface RecordedError {
  readonly code: string;
  readonly message: string;
  readonly status?: number;
  /** The server's Retry-After on this failure, in ms: no automatic try comes sooner (resume() included). */
  readonly retryAfterMs?: number;
}

/**
 * A Transmission (core contract) plus what the client needs to deliver it: the exact body to send
 * (its `requestId` is the idempotency key, fixed at enqueue time) and the retry bookkeeping.
 */
export interface QueuedTransmission extends Transmission {
  readonly threadId: string;
  readonly localMessageId: string;
  /** The body of `POST /v1/chat`; sent unchanged on every try so the server can replay it. */
  readonly packet: PacketInputBody;
  /** Enqueue order across the whole queue; a thread sends in ascending `seq`. */
  readonly seq: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Failed tries since enqueue or the last manual retry; compared with `maxAttempts`. */
  readonly failuresInRound: number;
  /** Earliest time (ms since epoch) of the next automatic try; null when none is planned. */
  readonly nextAttemptAt: number | null;
  readonly lastError: RecordedError | null;
  /** The server's answer, kept once the transmission succeeded. */
  readonly response?: ChatResponse;
}

/** A chat message as the client shows it: user messages at once, assistant ones after delivery. */
export interface LocalMessage {
  readonly messageId: string;
  readonly threadId: string;
  readonly role: "user" | "assistant";
  readonly content: string;
  readonly createdAt: string;
  /** The local transmission that carried (user) or answered (assistant) this message. */
  readonly transmissionId: string | null;
  readonly captureIds: readonly string[];
}

export const CAPTURE_STATUSES = ["pending", "ready", "failed"] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

/** An attachment of a local message, processed asynchronously by a CaptureProcessor (flow pack S3). */
export interface CaptureRecord {
  readonly captureId: string;
  readonly messageId: string;
  readonly threadId: string;
  /** Free-form kind used to pick a processor, e.g. "image", "file", "url". */
  readonly kind: string;
  /** JSON reference to the raw attachment (a URI, a file name, inline text...). */
  readonly source: unknown;
  readonly status: CaptureStatus;
  readonly dataDescription?: string;
  readonly data?: unknown;
  readonly error?: RecordedError;
  /** Processing runs that ended (ready or failed). */
  readonly attempts: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const MEMORY_SAVE_STATUSES = ["queued", "sending", "succeeded", "failed"] as const;
export type MemorySaveStatus = (typeof MEMORY_SAVE_STATUSES)[number];

/**
 * A memory save carried by the queue like a chat packet (issue 21): the `POST /v1/memories` body,
 * its `requestId` fixed at enqueue time, so a save resent after a crash or an outage is replayed by
 * the server instead of stored twice.
 */
export interface QueuedMemorySave {
  readonly saveId: string;
  readonly requestId: string;
  /** Sent unchanged on every try; carries `requestId`. */
  readonly body: MemorySaveInput & { readonly requestId: string };
  readonly status: MemorySaveStatus;
  /** Enqueue order across the whole queue. */
  readonly seq: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Failed tries since enqueue or the last resume; compared with `maxAttempts`. */
  readonly failuresInRound: number;
  /** Earliest time (ms since epoch) of the next automatic try; null when none is planned. */
  readonly nextAttemptAt: number | null;
  readonly lastError: RecordedError | null;
  /** The server's memory, kept once the save succeeded. */
  readonly memory?: Memory;
}

export const QUEUE_FORMAT_VERSION = 2 as const;

/** Everything the queue persists, in the versioned on-disk format. */
export interface QueueSnapshot {
  readonly formatVersion: typeof QUEUE_FORMAT_VERSION;
  readonly transmissions: readonly QueuedTransmission[];
  readonly messages: readonly LocalMessage[];
  readonly captures: readonly CaptureRecord[];
  /** Since format 2. */
  readonly memorySaves: readonly QueuedMemorySave[];
}

/** A snapshot with nothing in it. */
export function emptySnapshot(): QueueSnapshot {
  return {
    formatVersion: QUEUE_FORMAT_VERSION,
    transmissions: [],
    messages: [],
    captures: [],
    memorySaves: [],
  };
}
