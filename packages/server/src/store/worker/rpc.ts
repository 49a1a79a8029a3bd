import { isSolError, SOL_ERROR_CODES, SolError, type SolErrorCode } from "@solserver/core";

/** Version of the messages between the main thread and the store thread; both sides check it. */
export const STORE_RPC_VERSION = 1;

/**
 * One store method call: `target` names a store ("" for the root, "agency.tasks", ...). Calls travel
 * in arrays (those made in one tick together), and so do replies.
 */
export interface RpcCall {
  readonly id: number;
  readonly target: string;
  readonly method: string;
  readonly args: readonly unknown[];
  /** The caller's clock reading, sent only when the store was opened with a clock of its own. */
  readonly now?: number;
}

/** The answer to one call. */
export type RpcReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: EncodedError };

/** What the store thread sends once, before any reply: its methods, or why it could not open. */
export type RpcHello =
  | {
      readonly type: "ready";
      readonly version: number;
      readonly kind: "sqlite" | "postgres";
      /** Method names of every store the thread serves, by target. */
      readonly manifest: Readonly<Record<string, readonly string[]>>;
    }
  | { readonly type: "failed"; readonly error: EncodedError };

/**
 * Collects items pushed in one tick and hands them to `send` as one array at the end of it: one
 * message per tick each way, however many calls or answers that tick produced. `send` decides what a
 * batch that cannot be posted means on its side.
 */
export function batchPerTick<T>(send: (batch: T[]) => void): (item: T) => void {
  let outbox: T[] = [];
  const flush = () => {
    const batch = outbox;
    outbox = [];
    send(batch);
  };
  return (item) => {
    outbox.push(item);
    if (outbox.length === 1) queueMicrotask(flush);
  };
}

/** An error as it crosses the thread boundary (structured clone drops `code`, `details`, classes). */
export interface EncodedError {
  readonly name: string;
  readonly message: string;
  readonly solCode?: SolErrorCode;
  readonly details?: unknown;
  /** A driver's own code (SQLITE_BUSY, a PostgreSQL SQLSTATE), kept for callers that look at it. */
  readonly code?: string;
  readonly stack?: string;
  readonly cause?: EncodedError;
}

const MAX_CAUSE_DEPTH = 4;

/** Flattens an error into plain data that survives structured clone. */
export function encodeError(error: unknown, depth = 0): EncodedError {
  if (!(error instanceof Error) && !isSolError(error)) {
    return { name: "Error", message: String(error) };
  }
  const err = error as Error & { code?: unknown; details?: unknown };
  const cause = (err as { cause?: unknown }).cause;
  return {
    name: err.name,
    message: err.message,
    ...(isSolError(err) ? { solCode: err.code, details: cloneable(err.details) } : {}),
    ...(!isSolError(err) && typeof err.code === "string" ? { code: err.code } : {}),
    ...(err.stack === undefined ? {} : { stack: err.stack }),
    ...(cause !== undefined && depth < MAX_CAUSE_DEPTH ? { cause: encodeError(cause, depth + 1) } : {}),
  };
}

/** Rebuilds an error on the calling thread: a SolError keeps its code and details. */
export function decodeError(encoded: EncodedError): Error {
  const cause = encoded.cause === undefined ? undefined : decodeError(encoded.cause);
  let error: Error;
  if (encoded.solCode !== undefined && (SOL_ERROR_CODES as readonly string[]).includes(encoded.solCode)) {
    error = new SolError(encoded.solCode, encoded.message, {
      ...(encoded.details === undefined ? {} : { details: encoded.details }),
      ...(cause === undefined ? {} : { cause }),
    });
  } else {
    error = new Error(encoded.message, cause === undefined ? undefined : { cause });
    error.name = encoded.name;
    if (encoded.code !== undefined) Object.assign(error, { code: encoded.code });
  }
  if (encoded.stack !== undefined) error.stack = encoded.stack;
  return error;
}

/** Details are data by contract; anything a clone would reject is reduced to its JSON form. */
function cloneable(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    structuredClone(value);
    return value;
  } catch {
    try {
      return JSON.parse(JSON.stringify(value)) as unknown;
    } catch {
      return String(value);
    }
  }
}
