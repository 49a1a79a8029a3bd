import { canonicalJson } from "../hash/canonical-json.js";
import { sha256Hex } from "../hash/sha256.js";

/**
 * Canonical JSON of a value: JSON.stringify semantics (toJSON honoured, undefined and functions
 * dropped from objects and null in arrays, non-finite numbers as null) with object keys sorted at
 * every depth and no whitespace, so equal data always gives equal text whatever its key order.
 * Throws TypeError for values JSON cannot hold (BigInt, cycles).
 */
export function canonicalPayloadJson(value: unknown): string {
  return value === undefined ? "null" : canonicalJson(value);
}

/**
 * SHA-256 (hex) binding an action's kind to its exact payload. The approval refers to this hash, so
 * a stored row whose kind or payload changed after it was proposed no longer matches it.
 */
export function hashActionPayload(actionKind: string, payload: Readonly<Record<string, unknown>>): string {
  return sha256Hex(canonicalPayloadJson({ action_kind: actionKind, payload }));
}
