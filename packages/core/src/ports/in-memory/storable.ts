import { SolError } from "../../errors.js";

// Lone surrogates: with the u flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /\p{Cs}/u;

function unstorable(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

/** Refuses text the SQL stores refuse (NUL, unpaired surrogates), with the same `invalid_input`. */
export function assertStorableText(value: string, field: string): void {
  if (unstorable(value)) {
    throw new SolError("invalid_input", `${field} contains a NUL character or an unpaired surrogate`, {
      details: { field },
    });
  }
}

/** {@link assertStorableText} for every named key that is set. */
export function assertStorableKeys(keys: Readonly<Record<string, string | null | undefined>>): void {
  for (const [field, value] of Object.entries(keys)) {
    if (typeof value === "string") assertStorableText(value, field);
  }
}

/** True when no key holds text a write would refuse; such a key names no stored row. */
export function isStorableKey(...keys: ReadonlyArray<string | null | undefined>): boolean {
  return keys.every((key) => typeof key !== "string" || !unstorable(key));
}

/** Refuses values the SQL stores cannot hold as JSON: not serialisable, or holding unstorable text. */
export function assertStorableJson(value: unknown, field: string): void {
  const text = JSON.stringify(value);
  if (text === undefined) throw new SolError("invalid_input", `${field} is not JSON-serialisable`);
  walkStrings(JSON.parse(text), (s) => assertStorableText(s, field));
}

/** A JSON round trip: what a store hands back is a copy, detached from the caller's value. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function walkStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) walkStrings(item, visit);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      visit(key);
      walkStrings(item, visit);
    }
  }
}

/** Largest version a SQL row holds (PostgreSQL integer); other numbers name no stored version. */
export function isStorableVersion(version: number): boolean {
  return Number.isSafeInteger(version) && version >= 0 && version <= 2_147_483_647;
}

/** A tenant-scoped key for the stores' maps. */
export function keyOf(...parts: readonly string[]): string {
  return parts.join("\u0000");
}
