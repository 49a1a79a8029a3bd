import { lineStartBefore } from "../text/chars.js";

/** A trailing fragment of at most this many words after the last sentence counts as cut off. */
export const FRAGMENT_MAX_WORDS = 4;

const JUNK = new Set([..." \t\n\r\f\v,;:-\u2013\u2014*#|<>~_/\\=+`^[({", "\u00a0"]);
const ENDERS = ".!?\u2026";
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

/** Drops whitespace and stray symbols (dangling commas, dashes, open brackets) from the end. */
function trimJunk(text: string, end: number): number {
  let e = end;
  while (e > 0 && (JUNK.has(text[e - 1] as string) || isSpace(text[e - 1]))) e--;
  return e;
}

/** Chat-template control tokens a model may emit at the end ("<|endoftext|>", "<|im_end|>", "</s>"). */
const SPECIAL_TOKEN_AT_END = /(?:<\|[A-Za-z0-9_]{1,32}\|>|<\/s>|<eos>|<end_of_turn>|\[\/INST\])$/;

/** Drops trailing whitespace and the control tokens that end the text (each whole, never half of one). */
function trimSpecialToken(text: string, end: number): number {
  let e = end;
  while (e > 0 && isSpace(text[e - 1])) e--;
  for (;;) {
    const m = SPECIAL_TOKEN_AT_END.exec(text.slice(Math.max(0, e - 40), e));
    if (m === null) return e;
    e -= m[0].length;
    while (e > 0 && isSpace(text[e - 1])) e--;
  }
}

/** Drops a bare number that follows a finished sentence ("I should explore. 42"). */
function trimNumberAfterSentence(text: string, end: number): number {
  let d = end;
  while (d > 0 && (text[d - 1] as string) >= "0" && (text[d - 1] as string) <= "9") d--;
  if (d === end) return end;
  let w = d;
  while (w > 0 && isSpace(text[w - 1])) w--;
  if (w === d || w === 0 || !ENDERS.includes(text[w - 1] as string)) return end;
  return w;
}

// Short words that end in a full stop without ending a sentence ("Mr. Smith", "e.g. wood").
const ABBREVIATIONS = new Set("mr mrs ms dr st vs etc e.g i.e approx".split(" "));

/** The word before position `at` (letters, digits, dots), lowercased, without its trailing dots. */
function wordBefore(text: string, at: number, lineStart: number): string {
  let s = at;
  while (s > lineStart && (LETTER_OR_DIGIT.test(text[s - 1] as string) || text[s - 1] === ".")) s--;
  return text.slice(s, at).toLowerCase().replace(/\.+$/, "");
}

/**
 * True when the run of enders ending at `k` (exclusive) closes a sentence: not a list marker
 * ("2."), not an abbreviation ("Mr.", "e.g.").
 */
function closesSentence(text: string, k: number, lineStart: number): boolean {
  let r = k - 1;
  while (r > lineStart && ENDERS.includes(text[r - 1] as string)) r--;
  const beforeRun = text[r - 1];
  if (r <= lineStart || beforeRun === undefined || (beforeRun >= "0" && beforeRun <= "9")) return false;
  return text[k - 1] !== "." || !ABBREVIATIONS.has(wordBefore(text, r, lineStart));
}

/**
 * Drops a fragment of 1..FRAGMENT_MAX_WORDS words with no end punctuation after the last sentence
 * of the last line ("I will mine. then go"). The origin project's rule: a model cut off at its
 * token limit leaves such a tail. A line with no sentence end is kept whole, and so is a longer
 * tail (it is more likely a sentence the model meant without its full stop).
 */
function trimFragment(text: string, end: number): number {
  const last = text[end - 1];
  if (last === undefined || !LETTER_OR_DIGIT.test(last)) return end;
  const lineStart = lineStartBefore(text, end);
  let words = 0;
  let inWord = false;
  for (let k = end - 1; k > lineStart; k--) {
    const ch = text[k] as string;
    if (isSpace(ch)) {
      inWord = false;
      if (ENDERS.includes(text[k - 1] as string) && closesSentence(text, k, lineStart)) {
        return words >= 1 ? k : end;
      }
    } else if (!inWord) {
      inWord = true;
      words++;
      if (words > FRAGMENT_MAX_WORDS) return end;
    }
  }
  return end;
}

/**
 * Removes what a model leaves behind at the end of a reply: chat-template control tokens such as
 * `<|endoftext|>`, dangling symbols, a bare number after the last sentence, and a fragment of up to
 * FRAGMENT_MAX_WORDS words without end punctuation after the last sentence ("I will mine. then go").
 */
export function stripTrailingGarbage(text: string): string {
  let end = text.length;
  for (;;) {
    const before = end;
    // Control tokens first: their brackets and bars would otherwise be trimmed as junk, half a token.
    end = trimFragment(text, trimNumberAfterSentence(text, trimJunk(text, trimSpecialToken(text, end))));
    if (end === before) break;
  }
  return end === text.length ? text : text.slice(0, end).trimEnd();
}
