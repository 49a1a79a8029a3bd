import { isHorizontalSpace, isLineBreak, lineEndAt } from "../text/chars.js";

/** Opening words of instructions the agency prompts send; a line starting with one is a leak. */
export const SYSTEM_PROMPT_LEAK_PREFIXES: readonly string[] = [
  "You are my private inner thought",
  "You are my inner voice",
  "You are an AI",
  "You are an agent",
  "You are a Minecraft",
  "As an AI language model",
  "As an AI assistant",
  "System prompt:",
  "System:",
  "Instructions:",
  "Write exactly one",
  "Write one or two",
  "Respond with",
  "Do not mention",
  "End with a line",
  "Only if you are committing",
  "Only if I'm committing",
];

const FENCE_LANG_MAX = 32;

function isFenceLangChar(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_+#.-]/.test(ch);
}

function atLineStart(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && isHorizontalSpace(text[k])) k--;
  return k < 0 || isLineBreak(text[k]);
}

function isGlue(ch: string | undefined): boolean {
  return ch !== undefined && !isHorizontalSpace(ch) && !isLineBreak(ch);
}

/**
 * Removes Markdown code fences: every run of three or more backticks, plus the language word of an
 * opening fence line (```json). Single and double backticks around item names stay. A fence glued
 * between two characters leaves one space, so removing it never forms a new fence or token.
 */
export function stripCodeFences(text: string): string {
  let idx = text.indexOf("```");
  if (idx === -1) return text;
  const parts: string[] = [];
  let pos = 0;
  while (idx !== -1) {
    let end = idx;
    while (text[end] === "`") end++;
    let cut = end;
    if (atLineStart(text, idx)) {
      let k = end;
      while (k < text.length && k - end < FENCE_LANG_MAX && isFenceLangChar(text[k])) k++;
      let m = k;
      while (m < text.length && isHorizontalSpace(text[m])) m++;
      if (k > end && (m === text.length || isLineBreak(text[m]))) cut = k;
    }
    parts.push(text.slice(pos, idx));
    if (isGlue(text[idx - 1]) && isGlue(text[cut])) parts.push(" ");
    pos = cut;
    idx = text.indexOf("```", cut);
  }
  parts.push(text.slice(pos));
  return parts.join("");
}

const QUOTE_CHARS = ['"', "'", "\u201c", "\u201d", "\u2018", "\u2019", "\u00ab", "\u00bb"] as const;
/** [open, close, may strip a lone opener or closer (a reply cut off mid-quote)]. */
const QUOTE_PAIRS: readonly (readonly [string, string, boolean])[] = [
  ['"', '"', true],
  ["\u201c", "\u201d", true],
  ["\u00ab", "\u00bb", true],
  ["'", "'", false],
  ["\u2018", "\u2019", false],
];

/**
 * Removes quotation marks wrapping the whole reply (`"..."`, curly and guillemet pairs), also a
 * lone double quote left when the reply was cut off. A pair is stripped only when neither mark
 * occurs inside, so `He said "go"` is left alone.
 */
export function stripWrappingQuotes(text: string): string {
  const counts = new Map<string, number>();
  for (const q of QUOTE_CHARS) {
    let n = 0;
    for (let k = text.indexOf(q); k !== -1; k = text.indexOf(q, k + 1)) n++;
    counts.set(q, n);
  }
  const count = (q: string) => counts.get(q) ?? 0;
  const drop = (q: string | undefined) => {
    if (q !== undefined && counts.has(q)) counts.set(q, count(q) - 1);
  };
  let lo = 0;
  let hi = text.length;
  let stripped = false;
  for (;;) {
    while (lo < hi && /\s/.test(text[lo] as string)) lo++;
    while (hi > lo && /\s/.test(text[hi - 1] as string)) hi--;
    const first = text[lo];
    const last = text[hi - 1];
    let step: "pair" | "open" | "close" | null = null;
    for (const [open, close, lone] of QUOTE_PAIRS) {
      const same = open === close;
      if (hi - lo >= 2 && first === open && last === close) {
        if (same ? count(open) === 2 : count(open) === 1 && count(close) === 1) step = "pair";
      } else if (lone && first === open && count(open) === 1 && (same || count(close) === 0)) {
        step = "open";
      } else if (lone && last === close && count(close) === 1 && (same || count(open) === 0)) {
        step = "close";
      }
      if (step !== null) break;
    }
    if (step === null) break;
    stripped = true;
    if (step !== "close") {
      drop(first);
      lo++;
    }
    if (step !== "open") {
      drop(last);
      hi--;
    }
  }
  return stripped ? text.slice(lo, hi) : text;
}

/** Length of the prefix that `text` starts with at `at` (case-insensitive), or 0. */
function startsWithPrefix(text: string, at: number, lowered: readonly string[]): number {
  const first = text[at]?.toLowerCase();
  if (first === undefined) return 0;
  for (const prefix of lowered) {
    if (prefix[0] === first && text.slice(at, at + prefix.length).toLowerCase() === prefix)
      return prefix.length;
  }
  return 0;
}

/** Index just past the sentence that starts at `from`, within the line ending at `lineEnd`. */
function sentenceEnd(text: string, from: number, lineEnd: number): number {
  for (let k = from; k < lineEnd; k++) {
    const ch = text[k] as string;
    if (".!?;\u2026".includes(ch) && (k + 1 === lineEnd || isHorizontalSpace(text[k + 1]))) return k + 1;
  }
  return lineEnd;
}

/**
 * Removes sentences that echo the prompt: on every line, while the line starts with one of
 * `prefixes` (case-insensitive), the sentence it opens is cut. Lines stay where they are.
 */
export function stripSystemPromptLeaks(
  text: string,
  prefixes: readonly string[] = SYSTEM_PROMPT_LEAK_PREFIXES,
): string {
  const lowered = prefixes.filter((p) => p.length > 0).map((p) => p.toLowerCase());
  const parts: string[] = [];
  let changed = false;
  let lineStart = 0;
  for (;;) {
    const lineEnd = lineEndAt(text, lineStart);
    let q = lineStart;
    while (q < lineEnd && isHorizontalSpace(text[q])) q++;
    let lineChanged = false;
    for (let len = startsWithPrefix(text, q, lowered); len > 0; len = startsWithPrefix(text, q, lowered)) {
      q = sentenceEnd(text, q + len, lineEnd);
      while (q < lineEnd && isHorizontalSpace(text[q])) q++;
      lineChanged = true;
    }
    parts.push(lineChanged ? text.slice(q, lineEnd) : text.slice(lineStart, lineEnd));
    changed ||= lineChanged;
    if (lineEnd === text.length) break;
    parts.push(text[lineEnd] as string);
    lineStart = lineEnd + 1;
  }
  return changed ? parts.join("") : text;
}

/**
 * Tidies whitespace without flattening the text (Contract B): line breaks become `\n`, runs of
 * spaces and tabs become one space, every line is trimmed, at most one blank line separates
 * paragraphs, and blank lines at both ends are dropped.
 */
export function normalizeWhitespace(text: string): string {
  const lines: string[] = [];
  let line: string[] = [];
  let pendingSpace = false;
  let pendingBlank = false;
  let runStart = -1;
  const flushRun = (end: number) => {
    if (runStart === -1) return;
    if (pendingSpace) line.push(" ");
    pendingSpace = false;
    line.push(text.slice(runStart, end));
    runStart = -1;
  };
  const endLine = () => {
    if (line.length === 0) {
      pendingBlank = lines.length > 0;
    } else {
      if (pendingBlank) lines.push("");
      lines.push(line.join(""));
      pendingBlank = false;
    }
    line = [];
    pendingSpace = false;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x20 && code < 0x7f) {
      if (runStart === -1) runStart = i;
      continue;
    }
    const ch = text[i] as string;
    if (isLineBreak(ch)) {
      flushRun(i);
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endLine();
    } else if (isHorizontalSpace(ch)) {
      flushRun(i);
      pendingSpace = line.length > 0;
    } else if (runStart === -1) {
      runStart = i;
    }
  }
  flushRun(text.length);
  endLine();
  return lines.join("\n");
}
