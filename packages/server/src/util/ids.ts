import { randomUUID } from "node:crypto";
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
