import { createQuotedKeyCache } from "./quoted-key-cache.js";

/**
 * Canonical JSON: JSON.stringify semantics (toJSON honoured, undefined and functions dropped from
 * objects and null in arrays, non-finite numbers as null) with object keys sorted by UTF-16 code
 * units at every depth and no whitespace. Equal data always gives equal text whatever its key order
 * (jsonb and clients reorder keys), which is what hashes over stored values need.
 * Throws TypeError for values JSON cannot hold (BigInt, cycles, a bare undefined or function).
 */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, []);
  if (text === undefined) throw new TypeError("canonicalJson: the value is not JSON-serialisable");
  return text;
}

/**
 * Canonical JSON for cache keys and bindings, which must never throw: `undefined` reads as `null` and
 * a value JSON cannot hold (BigInt, a cycle, nesting past the stack) as one fixed marker.
 */
export function canonicalJsonOrMarker(value: unknown): string {
  if (value === undefined) return "null";
  try {
    return canonicalJson(value);
  } catch {
    return UNSERIALISABLE;
  }
}

const UNSERIALISABLE = '"[unserializable]"';

// Every trace event and payload hash goes through here, so it builds strings directly instead of
// arrays joined, and tracks the current path in an array (short: data is shallow) instead of a Set.
function serialise(input: unknown, path: object[]): string | undefined {
  let value = input;
  if (typeof value === "object" && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = (toJSON as () => unknown).call(value);
  }
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      // Same digits as JSON.stringify; it writes null for NaN and the infinities.
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new TypeError("canonicalJson: BigInt is not JSON data");
    case "object":
      return value === null ? "null" : serialiseObject(value, path);
    default:
      return undefined;
  }
}

function serialiseObject(value: object, path: object[]): string {
  if (path.includes(value)) throw new TypeError("canonicalJson: the value is cyclic");
  path.push(value);
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      text += serialise(value[i], path) ?? "null";
    }
    text += "]";
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = "{";
    let first = true;
    for (const key of keys) {
      const item = serialise(record[key], path);
      if (item === undefined) continue;
      text += first ? `${quoteKey(key)}:${item}` : `,${quoteKey(key)}:${item}`;
      first = false;
    }
    text += "}";
  }
  path.pop();
  return text;
}

// Keys repeat across calls (the same trace fields every turn); quoting them was a third of the work.
// Only short keys are kept: client JSON reaches here too (packet `meta`, payloads, facade tools).
const QUOTED_KEYS = createQuotedKeyCache();

function quoteKey(key: string): string {
  return QUOTED_KEYS.quote(key);
}
