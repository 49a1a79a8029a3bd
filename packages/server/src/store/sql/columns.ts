import { SolError } from "@solserver/core";
import { sqlDialect } from "../drivers/sql-dialect.js";
import type { StoreDialect } from "./schema.js";

// Lone surrogates: with the u flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Rejects text neither backend can store faithfully: PostgreSQL refuses NUL in text and jsonb, and
 * UTF-8 encoding silently replaces lone surrogates. Checking here keeps the two backends identical.
 */
export function assertStorableText(value: string, field: string): void {
  if (unstorable(value)) {
    throw new SolError("invalid_input", `${field} contains a NUL character or an unpaired surrogate`, {
      details: { field },
    });
  }
}

/** Throws like {@link assertStorableText} for the first named key that is set and not storable. */
export function assertStorableKeys(keys: Readonly<Record<string, string | null | undefined>>): void {
  for (const [field, value] of Object.entries(keys)) {
    if (typeof value === "string") assertStorableText(value, field);
  }
}

/**
 * True when no key holds a NUL or an unpaired surrogate. Writes refuse those, so such a key names no
 * stored row and a lookup answers "none" without asking the database: SQLite would find nothing,
 * while PostgreSQL refuses NUL in any text parameter (22021).
 */
export function isStorableKey(...keys: ReadonlyArray<string | null | undefined>): boolean {
  return keys.every((key) => typeof key !== "string" || !unstorable(key));
}

function unstorable(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

// JSON.stringify escapes NUL as \u0000 and a lone surrogate as \udXXX (well-formed stringify), while
// paired surrogates stay raw; so an escape of either, not itself preceded by an escaped backslash,
// means a string in the value held one.
const UNSTORABLE_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** Serialises a JSON column value (text in SQLite; PostgreSQL keeps the same text as json). */
export function encodeJson(value: unknown, field: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new SolError("invalid_input", `${field} is not JSON-serialisable`);
  assertStorableJsonText(text, field);
  return text;
}

/**
 * Rejects JSON text (from JSON.stringify or canonicalJson) whose strings hold a NUL or a lone
 * surrogate; checked on the text, one scan instead of re-parsing and walking every string.
 */
export function assertStorableJsonText(text: string, field: string): void {
  if (text.includes("\\u") && UNSTORABLE_ESCAPE.test(text)) {
    throw new SolError("invalid_input", `${field} contains a NUL character or an unpaired surrogate`, {
      details: { field },
    });
  }
}

/** Reads a JSON column back in the store's dialect. */
export function decodeJson(dialect: StoreDialect, value: unknown): unknown {
  return sqlDialect(dialect).decodeJson(value);
}

/** Largest version a row holds: PostgreSQL's integer column (SQLite's would hold more). */
const MAX_STORED_VERSION = 2_147_483_647;

/**
 * True when a compare-and-swap may expect `version`. Any other number (fractional, out of range, NaN)
 * names no stored version: SQLite simply matches no row, while PostgreSQL refuses the parameter, so
 * callers answer "changed meanwhile" without asking the database.
 */
export function isStorableVersion(version: number): boolean {
  return Number.isSafeInteger(version) && version >= 0 && version <= MAX_STORED_VERSION;
}

/** pg returns bigint aggregates as strings; SQLite returns numbers. */
export function toNumber(value: unknown): number {
  return typeof value === "bigint" ? Number(value) : Number(value as string | number);
}
