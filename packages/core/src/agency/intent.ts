import { z } from "zod";
import { isHorizontalSpace, isWordChar, lineStartBefore } from "../text/chars.js";
import { allowlist } from "./allowlist.js";
import { TextBuffer } from "./text-buffer.js";

/** The fixed allowlist of intent labels; anything else parses to `intent: null` (fail-closed). */
export const VALID_INTENTS = allowlist([
  "none",
  "explore",
  "gather",
  "craft",
  "shelter",
  "food",
  "mine",
  "navigate",
] as const);

export const IntentLabel = z.enum(VALID_INTENTS);
export type IntentLabel = z.infer<typeof IntentLabel>;

/** How an INTENT token was found: a measurement of model compliance, never a feature switch. */
export const IntentParse = z.enum(["final_line", "inline_noncompliant"]);
export type IntentParse = z.infer<typeof IntentParse>;

export interface IntentExtraction {
  readonly text: string;
  readonly intent: IntentLabel | null;
  readonly intentParse: IntentParse | null;
}

const TOKEN = "intent:";
const VALID_SET: ReadonlySet<string> = new Set(VALID_INTENTS);

/** Maps a raw label to an allowed intent, or null. */
export function toIntentLabel(raw: string): IntentLabel | null {
  const label = raw.toLowerCase();
  return VALID_SET.has(label) ? (label as IntentLabel) : null;
}

/** Markdown emphasis and code marks a model wraps the token or its label in. */
function isEmphasis(ch: string | undefined): boolean {
  return ch === "*" || ch === "`";
}

/** True when `out` ends with `intent:` that is not the tail of a longer word ("MYINTENT:"). */
function endsWithToken(out: TextBuffer): boolean {
  return out.endsWithLower(TOKEN) && !isWordChar(out.charFromEnd(TOKEN.length + 1));
}

/**
 * Removes every `INTENT: <word>` token in one scan and returns the labels in order; Markdown
 * emphasis or code marks glued to the token or its label (`**INTENT:** explore`) go with it. Only the
 * horizontal whitespace around a token is touched (one space is kept between words); line breaks
 * are never removed. Tokens that only appear once another token is gone are removed as well.
 */
function scanInlineIntents(text: string): { text: string; labels: string[] } {
  const labels: string[] = [];
  if (!/intent:/i.test(text)) return { text, labels };
  const out = new TextBuffer();
  let after = false;
  let i = 0;
  while (i < text.length) {
    if (after) {
      if (isHorizontalSpace(text[i])) {
        i++;
        continue;
      }
      out.rejoinBefore(text[i]);
      after = false;
    }
    const colon = text.indexOf(":", i);
    if (colon !== i) {
      const end = colon === -1 ? text.length : colon;
      out.push(text.slice(i, end));
      i = end;
      continue;
    }
    out.push(":");
    if (!endsWithToken(out)) {
      i++;
      continue;
    }
    out.truncate(out.length - TOKEN.length);
    // Markdown emphasis glued to the token ("**INTENT:**", "`INTENT:`") belongs to it.
    while (isEmphasis(out.charFromEnd(1))) out.truncate(out.length - 1);
    out.trimEndHorizontal();
    let j = i + 1;
    while (j < text.length && (isHorizontalSpace(text[j]) || isEmphasis(text[j]))) j++;
    const labelStart = j;
    while (j < text.length && isWordChar(text[j])) j++;
    labels.push(text.slice(labelStart, j));
    if (j > labelStart) {
      // "INTENT: *explore*", "**INTENT: explore**": the closing emphasis belongs to the token too.
      while (j < text.length && isEmphasis(text[j])) j++;
      // "INTENT: explore." — the period belongs to the token, not to the sentence before it.
      if (text[j] === ".") j++;
    }
    after = true;
    i = j;
  }
  return { text: out.toString(), labels };
}

/** Removes inline `INTENT: <word>` tokens; preserves every newline (Contract B). */
export function stripInlineIntent(text: string): string {
  return scanInlineIntents(text).text;
}

/**
 * The label of a trimmed line that starts with `INTENT:`, or null when it does not. The whole line
 * is the token, so its label is the first word with surrounding punctuation, quotes and brackets
 * removed (`[explore]`, `explore!`); "" when the line has none.
 */
function parseIntentLine(line: string): string | null {
  if (line.slice(0, TOKEN.length).toLowerCase() !== TOKEN) return null;
  let start = TOKEN.length;
  while (start < line.length && isHorizontalSpace(line[start])) start++;
  let end = start;
  while (end < line.length && !isHorizontalSpace(line[end])) end++;
  while (start < end && !isWordChar(line[start])) start++;
  while (end > start && !isWordChar(line[end - 1])) end--;
  return line.slice(start, end);
}

/**
 * Two-pass INTENT parser. Pass 1: the last non-empty line starts with `INTENT:` (compliant,
 * `final_line`; the whole line is removed). Pass 2: tokens inside the text (`inline_noncompliant`).
 * Every token is removed whatever its label; labels outside VALID_INTENTS give `intent: null`.
 */
export function extractIntent(text: string): IntentExtraction {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
  const lineStart = lineStartBefore(text, end);
  const finalLabel = parseIntentLine(text.slice(lineStart, end).trim());
  if (finalLabel !== null) {
    const rest = scanInlineIntents(text.slice(0, lineStart).trimEnd());
    return { text: rest.text, intent: toIntentLabel(finalLabel), intentParse: "final_line" };
  }
  const scanned = scanInlineIntents(text);
  const first = scanned.labels[0];
  if (first === undefined) return { text, intent: null, intentParse: null };
  return { text: scanned.text, intent: toIntentLabel(first), intentParse: "inline_noncompliant" };
}
