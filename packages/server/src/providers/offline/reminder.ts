import { clip, normalizeMessage, trimClause } from "./text-cues.js";

/** A "remind me to <X> [when]" request found in a user message. */
export interface ReminderRequest {
  readonly title: string;
  /** The due phrase as the user wrote it ("tomorrow at 9"), when there is one. */
  readonly when?: string;
}

const WEEKDAY_RE = "sunday|monday|tuesday|wednesday|thursday|friday|saturday";
const WHEN_START = new RegExp(
  String.raw`\b(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|next\s+(?:week|${WEEKDAY_RE})\b|(?:on\s+)?(?:${WEEKDAY_RE})\b|on\s+(?:the\s+)?\d|in\s+(?:an?|\d+)\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?)|at\s+(?:\d|noon|midnight)|\d{1,2}(?::\d{2})?\s*(?:am|pm)\b)`,
  "i",
);
const REMIND = /\bremind me\b/i;
const REMIND_BODY = /^remind me\s+(?:(.*?)\s+)?(?:to|about|that)\s+(.+)$/i;
// A sentence ends at ! ? a newline, or a period followed by a space or the end ("9.30" stays whole).
const SENTENCE_END = /[!?\n]|\.(?=\s|$)/;

/** Finds a reminder request; deterministic and purely lexical. */
export function detectReminder(message: string): ReminderRequest | undefined {
  const start = REMIND.exec(message);
  if (!start) return undefined;
  const tail = message.slice(start.index);
  const end = SENTENCE_END.exec(tail);
  const sentence = normalizeMessage(end ? tail.slice(0, end.index) : tail);
  const body = REMIND_BODY.exec(sentence);
  if (!body) return undefined;
  const prefix = body[1]?.trim() ?? "";
  const rest = body[2] ?? "";
  const split = WHEN_START.exec(rest);
  let title = rest;
  let when: string | undefined;
  if (split && split.index > 0) {
    title = rest.slice(0, split.index);
    when = rest.slice(split.index);
  } else if (prefix !== "" && WHEN_START.exec(prefix)?.index === 0) {
    when = prefix;
  }
  const cleanTitle = clip(trimClause(title), 150);
  if (cleanTitle === "") return undefined;
  const cleanWhen = when === undefined ? "" : clip(trimClause(when), 80);
  return cleanWhen === "" ? { title: cleanTitle } : { title: cleanTitle, when: cleanWhen };
}
