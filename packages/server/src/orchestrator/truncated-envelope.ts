const OPENING = /^\s*\{\s*"assistant_text"\s*:\s*"/;
/** The envelope's opening up to the value's quote, as a model writes it without whitespace. */
const OPENING_TOKENS = '{"assistant_text":"';
/** Longest escape sequence (`\uXXXX`) a cut can leave unfinished at the end of the text. */
const MAX_ESCAPE = 6;

/**
 * The `assistant_text` of an envelope the provider cut off (finish reason `length`), as far as it
 * got: `{"assistant_text": "The first step is to` gives `The first step is to`. Null when the text
 * does not start like an envelope. Escapes are decoded; an escape cut in half is dropped. A cut before
 * the value began (`{"assis`) gives "": there is no reply text yet, and the raw JSON is none.
 */
export function truncatedEnvelopeText(text: string): string | null {
  const opening = OPENING.exec(text);
  if (opening === null) return cutInOpening(text) ? "" : null;
  const body = text.slice(opening[0].length);
  const end = closingQuote(body);
  const inner = end === -1 ? body : body.slice(0, end);
  for (let cut = inner.length; cut >= Math.max(0, inner.length - MAX_ESCAPE); cut -= 1) {
    try {
      const value: unknown = JSON.parse(`"${inner.slice(0, cut)}"`);
      if (typeof value === "string") return value;
    } catch {
      // An escape cut in half (or a raw control character): try a shorter prefix.
    }
  }
  return null;
}

/** Index of the first unescaped `"` in a JSON string body, or -1. */
function closingQuote(body: string): number {
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i];
    if (ch === "\\") i += 1;
    else if (ch === '"') return i;
  }
  return -1;
}

/** True when `text` is an unfinished start of the envelope's opening, up to the value's quote. */
function cutInOpening(text: string): boolean {
  const start = text.trimStart();
  // Whitespace may stand between the tokens, never inside the key.
  if (!/^\{\s*(?:"[a-z_]*"?\s*(?::\s*)?)?$/.test(start)) return false;
  return OPENING_TOKENS.startsWith(start.replace(/\s+/g, ""));
}
