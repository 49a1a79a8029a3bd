import { randomFillSync, randomUUID } from "node:crypto";
import type { IdGenerator } from "@solserver/core";

/**
 * Prefixed identifiers such as `tx_0194f2c3a8b1...`: 32 hex digits, the first 12 the creation time in
 * milliseconds (as in UUIDv7), the other 20 from a random UUID (at least 74 random bits). Time order
 * matters to the store: every id lands in an index, and random keys dirtied a different B-tree page per
 * insert, so each commit wrote about ten scattered pages per turn; time-ordered keys append to the same
 * few pages, which a group commit then writes once.
 */
export const randomIds: IdGenerator = (prefix) => {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastHex = now.toString(16).padStart(12, "0").slice(-12);
  }
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: the 20 hex digits after the first 12.
  const uuid = randomUUID();
  return `${prefix}_${lastHex}${uuid.slice(14, 18)}${uuid.slice(19, 23)}${uuid.slice(24)}`;
};

let lastMs = Number.NaN;
let lastHex = "";

/**
 * 32 random hex digits (128 bits, W3C trace id shaped), from a pooled buffer: a `randomBytes(16)` per
 * request was 1.6% of the facade's main-thread CPU, one entropy call for 16 bytes each time.
 */
export function randomTraceId(): string {
  if (poolOffset + TRACE_ID_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString("hex", poolOffset, poolOffset + TRACE_ID_BYTES);
  poolOffset += TRACE_ID_BYTES;
  // An all-zero trace id is invalid (W3C trace context); 2^-128, but cheap to rule out.
  return hex === ZERO_TRACE_ID ? randomTraceId() : hex;
}

const TRACE_ID_BYTES = 16;
const ZERO_TRACE_ID = "0".repeat(TRACE_ID_BYTES * 2);
const pool = Buffer.alloc(TRACE_ID_BYTES * 256);
let poolOffset = pool.length;
