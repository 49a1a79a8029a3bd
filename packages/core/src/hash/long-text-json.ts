import { createLruCache } from "../cache/lru-cache.js";

/** Shortest text, in UTF-16 units, whose JSON form {@link longTextJson} keeps. */
export const LONG_TEXT_CHARS = 1024;

// A mounted law is the same several-KB string on every turn; escaping it again for the prompt hash
// and again for the provider's request body showed in the profiles. Kept by content, so an equal text
// from another source hits too; bounded, so a client's long texts cannot pile up.
const kept = createLruCache<string>({
  capacity: 16,
  charsBudget: 4 * 1024 * 1024,
  sizeOf: (json) => json.length,
});

/** `JSON.stringify(text)`, with the JSON of texts of at least {@link LONG_TEXT_CHARS} kept in a small LRU. */
export function longTextJson(text: string): string {
  if (text.length < LONG_TEXT_CHARS) return JSON.stringify(text);
  let json = kept.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    kept.set(text, json);
  }
  return json;
}
