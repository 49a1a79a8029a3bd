export interface DueTimeContext {
  /** Reference instant for relative phrases; without it only absolute dates resolve. */
  readonly nowMs?: number;
  /** Offset of the user's local time from UTC, in minutes (UTC+2 is 120). */
  readonly offsetMinutes: number;
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const WEEKDAY_RE = WEEKDAYS.join("|");
const PERIOD_MINUTES: Readonly<Record<string, number>> = {
  morning: 9 * 60,
  afternoon: 15 * 60,
  evening: 18 * 60,
  night: 20 * 60,
};
const DEFAULT_MINUTES = 9 * 60;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const DAY = String.raw`(?<day>today|tonight|tomorrow|(?:(?:on|next|this)\s+)?(?<weekday>${WEEKDAY_RE})|(?:on\s+)?(?<iso>\d{4}-\d{2}-\d{2}))`;
const PERIOD = String.raw`(?:\s+(?:in\s+the\s+)?(?<period>morning|afternoon|evening|night))?`;
const TIME = String.raw`(?:at\s+)?(?<time>noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)`;
const DAY_FIRST = new RegExp(String.raw`^${DAY}${PERIOD}(?:\s+${TIME})?$`);
const TIME_FIRST = new RegExp(String.raw`^${TIME}(?:\s+${DAY}${PERIOD})?$`);
const IN_DELTA = /^in\s+(?<count>an?|\d{1,4})\s+(?<unit>minutes?|mins?|hours?|hrs?|days?|weeks?)$/;

const UNIT_MS: Readonly<Record<string, number>> = {
  m: MINUTE_MS,
  h: 60 * MINUTE_MS,
  d: DAY_MS,
  w: 7 * DAY_MS,
};

// Anchored where a run starts: /[.,!?]+$/ rescans a long run that is not at the end (quadratic).
const TRAILING_PUNCTUATION = /(?<![.,!?])[.,!?]+$/;

/** Resolves a due phrase ("tomorrow at 9", "on friday", "in 2 hours") to an ISO instant, or undefined. */
export function resolveDueTime(phrase: string, context: DueTimeContext): string | undefined {
  const p = phrase
    .toLowerCase()
    .replace(/\bthis\s+(morning|afternoon|evening)\b/, "today $1")
    .replace(/\s+/g, " ")
    .replace(TRAILING_PUNCTUATION, "")
    .trim();
  const delta = IN_DELTA.exec(p)?.groups;
  if (delta) {
    if (context.nowMs === undefined) return undefined;
    const count = delta.count === "a" || delta.count === "an" ? 1 : Number(delta.count);
    const unitMs = UNIT_MS[delta.unit?.startsWith("min") ? "m" : (delta.unit?.[0] ?? "")] ?? MINUTE_MS;
    return new Date(context.nowMs + count * unitMs).toISOString();
  }
  const groups = DAY_FIRST.exec(p)?.groups ?? TIME_FIRST.exec(p)?.groups;
  if (!groups) return undefined;
  const minutes = minutesOfDay(
    groups.time,
    groups.period ?? (groups.day === "tonight" ? "night" : undefined),
  );
  if (minutes === undefined) return undefined;
  if (groups.iso) return isoDate(groups.iso, minutes, context.offsetMinutes);
  if (context.nowMs === undefined) return undefined;
  return relativeDay(groups.day, groups.weekday, minutes, context.nowMs, context.offsetMinutes);
}

function minutesOfDay(time: string | undefined, period: string | undefined): number | undefined {
  const periodMinutes = period === undefined ? undefined : PERIOD_MINUTES[period];
  if (time === undefined) return periodMinutes ?? DEFAULT_MINUTES;
  if (time === "noon") return 12 * 60;
  if (time === "midnight") return 0;
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(time);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const meridiem = match[3]?.[0];
  if (minute > 59 || hour > 23) return undefined;
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === "p" ? 12 : 0);
  } else if (hour < 12 && period !== undefined && period !== "morning") {
    // "tomorrow evening at 7" means 19:00.
    hour += 12;
  }
  return hour * 60 + minute;
}

function isoDate(iso: string, minutes: number, offsetMinutes: number): string | undefined {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const dayStart = Date.UTC(y, m - 1, d);
  const check = new Date(dayStart);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
    return undefined;
  return new Date(dayStart + (minutes - offsetMinutes) * MINUTE_MS).toISOString();
}

function relativeDay(
  day: string | undefined,
  weekday: string | undefined,
  minutes: number,
  nowMs: number,
  offsetMinutes: number,
): string {
  const localNow = new Date(nowMs + offsetMinutes * MINUTE_MS);
  const localMidnight = Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate());
  let addDays = 0;
  if (day === "tomorrow") addDays = 1;
  else if (weekday !== undefined) {
    // "on friday" said on a Friday means next week's.
    addDays = (WEEKDAYS.indexOf(weekday) - localNow.getUTCDay() + 7) % 7 || 7;
  } else if (day === undefined && localMidnight + minutes * MINUTE_MS <= localNow.getTime()) {
    // A bare time already past today means tomorrow.
    addDays = 1;
  }
  const localTarget = localMidnight + addDays * DAY_MS + minutes * MINUTE_MS;
  return new Date(localTarget - offsetMinutes * MINUTE_MS).toISOString();
}
