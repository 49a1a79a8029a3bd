import { SolError } from "../errors.js";

/** Bounds of a {@link QuotedKeyCache}. */
export interface QuotedKeyCacheOptions {
  /** Most keys kept; a full cache starts over (default 4096). */
  readonly maxEntries?: number;
  /**
   * Longest key kept, in UTF-16 units (default 64). Longer keys are quoted on every call and never
   * kept: keys can come from client JSON (`meta`, action payloads, facade `tools`), so a bound on the
   * count alone would let 4096 keys of a megabyte each stay in memory for the life of the process.
   */
  readonly maxKeyLength?: number;
}

/** `JSON.stringify(key)` memoised for the short keys that repeat across calls (trace fields). */
export interface QuotedKeyCache {
  quote(key: string): string;
  /** Keys kept. */
  readonly size: number;
  /** UTF-16 units held by the kept keys and their quoted forms. */
  readonly keptChars: number;
}

const DEFAULTS = { maxEntries: 4096, maxKeyLength: 64 };

/** A bounded cache of quoted object keys: at most `maxEntries` keys of at most `maxKeyLength` units. */
export function createQuotedKeyCache(options: QuotedKeyCacheOptions = {}): QuotedKeyCache {
  const { maxEntries, maxKeyLength } = { ...DEFAULTS, ...options };
  for (const [name, value] of Object.entries({ maxEntries, maxKeyLength })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new SolError("invalid_input", `${name} must be a positive integer, got ${value}`);
    }
  }
  const quoted = new Map<string, string>();
  let keptChars = 0;
  return {
    quote(key) {
      if (key.length > maxKeyLength) return JSON.stringify(key);
      let text = quoted.get(key);
      if (text === undefined) {
        text = JSON.stringify(key);
        if (quoted.size >= maxEntries) {
          quoted.clear();
          keptChars = 0;
        }
        quoted.set(key, text);
        keptChars += key.length + text.length;
      }
      return text;
    },
    get size() {
      return quoted.size;
    },
    get keptChars() {
      return keptChars;
    },
  };
}
