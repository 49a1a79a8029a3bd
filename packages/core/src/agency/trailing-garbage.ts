import { lineStartBefore } from "../text/chars.js";

/** A trailing fragment of at most this many words after the last sentence counts as cut off. */
export const FRAGMENT_MAX_WORDS = 3;

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

// Words a sentence cannot end on: a fragment ending on one was cut off mid-sentence ("Then I",
// "and the", "going to"). A short closing sentence without its full stop ("I am curious", "Need 8
// more") ends on a content word and is kept: it is what the model meant to say.
const CUT_OFF_ENDINGS = new Set(
  (
    "a an the and or but nor so then to of in on at for with from by into onto as if because than " +
    "while when where i we you he she they my your our their its is are was were am be been will " +
    "would should can could must shall may might have has had do does did not very"
  ).split(" "),
);

/** The last word of text[..end) (letters, digits, apostrophes), lowercased. */
function lastWord(text: string, end: number): string {
  let s = end;
  while (s > 0 && (LETTER_OR_DIGIT.test(text[s - 1] as string) || text[s - 1] === "'")) s--;
  return text.slice(s, end).toLowerCase();
}

/**
 * Drops a short unfinished fragment after the last sentence of the last line ("... wood. Then I"):
 * one that ends on a word no sentence ends on.
 */
function trimFragment(text: string, end: number): number {
  const last = text[end - 1];
  if (last === undefined || !LETTER_OR_DIGIT.test(last)) return end;
  if (!CUT_OFF_ENDINGS.has(lastWord(text, end))) return end;
  const lineStart = lineStartBefore(text, end);
  let words = 0;
  let inWord = false;
  for (let k = end - 1; k > lineStart; k--) {
    const ch = text[k] as string;
    if (isSpace(ch)) {
      inWord = false;
      // An ender right before this space closes the previous sentence, unless it follows a digit
      // (a list marker such as "2.").
      const prev = text[k - 1] as string;
      if (ENDERS.includes(prev)) {
        let r = k - 1;
        while (r > lineStart && ENDERS.includes(text[r - 1] as string)) r--;
        const beforeRun = text[r - 1];
        if (r > lineStart && beforeRun !== undefined && !(beforeRun >= "0" && beforeRun <= "9")) {
          return words >= 1 && words <= FRAGMENT_MAX_WORDS ? k : end;
        }
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
 * `<|endoftext|>`, dangling symbols, a bare number after
 * the last sentence, and a fragment of up to FRAGMENT_MAX_WORDS words cut off mid-sentence (ending on
 * a word no sentence ends on, such as "the" or "I").
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
