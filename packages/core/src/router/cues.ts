/** Structural cue names: shapes in the text (not topics) that often separate modes. */
export const CUE_NAMES = [
  "number",
  "money",
  "percent",
  "date",
  "time",
  "duration",
  "constraint",
  "question",
  "url",
  "email",
] as const;
export type CueName = (typeof CUE_NAMES)[number];

const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend";
const UNITS = "seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|yrs?";

// Patterns run on normalized (lowercase, accent-free) text, before digits are collapsed.
const CUE_PATTERNS: ReadonlyArray<readonly [CueName, RegExp]> = [
  ["number", /\d/],
  [
    "money",
    /[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|dollars?|euros?|pounds?|usd|eur|gbp|bucks|cents?)\b|\b(?:dollars?|euros?|pounds?)\b/,
  ],
  ["percent", /\d\s?(?:%|percent\b)/],
  [
    "date",
    new RegExp(
      `\\b(?:${MONTHS})\\s+\\d{1,2}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\b|\\b\\d{1,4}[/.-]\\d{1,2}(?:[/.-]\\d{1,4})?\\b|\\b(?:${WEEKDAYS}|today|tomorrow|yesterday|tonight)\\b`,
    ),
  ],
  ["time", /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight|o'?clock)\b/],
  ["duration", new RegExp(`\\b(?:\\d+|a|an|one|two|three|few|several)\\s+(?:${UNITS})\\b`)],
  [
    "constraint",
    /\b(?:must|at (?:least|most)|no (?:more|later|less) than|deadline|due (?:by|on)|maximum|minimum|exactly|within|required|requirement|only if|unless)\b/,
  ],
  [
    "question",
    /\?|^\s*(?:who|what|when|where|why|how|which|can|could|would|will|is|are|do|does|did|should|may)\b/,
  ],
  ["url", /\bhttps?:\/\/|\bwww\.\w/],
  // What /\b[\w.+-]+@[\w-]+\.\w/ finds, anchored where a run of address characters starts: that
  // pattern restarted inside one long run ("0.0.0.0...") at every position, quadratic in its length.
  ["email", /(?:^|[^\w.+-])[.+-]*\w[\w.+-]*@[\w-]+\.\w/],
];

/** Returns the structural cues present in normalized text, in a fixed order. */
export function detectCues(normalized: string): CueName[] {
  const found: CueName[] = [];
  for (const [name, pattern] of CUE_PATTERNS) if (pattern.test(normalized)) found.push(name);
  return found;
}
