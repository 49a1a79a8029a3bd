import { zonedParts, zonedTimeToUtc } from "@solserver/core";

export interface DueTimeContext {
  /** Reference instant for relative phrases; without it only absolute dates resolve. */
  readonly nowMs?: number;
  /** Offset of the user's local time from UTC, in minutes (UTC+2 is 120); used when there is no `timeZone`. */
  readonly offsetMinutes: number;
  /** The user's IANA zone (valid; checked at the edge): wins over `offsetMinutes`, DST included. */
  readonly timeZone?: string;
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
  const calendar = calendarOf(context);
  if (groups.iso) return isoDate(groups.iso, minutes, calendar);
  if (context.nowMs === undefined) return undefined;
  return relativeDay(groups.day, groups.weekday, minutes, context.nowMs, calendar);
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

/** Local calendar arithmetic in the user's zone: a fixed offset, or an IANA zone (DST-aware). */
interface LocalCalendar {
  /** Today's date and weekday where the user is. */
  today(nowMs: number): {
    readonly year: number;
    readonly month: number;
    readonly day: number;
    readonly weekday: number;
    readonly minutes: number;
  };
  /** The instant of a local date (month 1..12) and minute of the day. */
  toInstant(year: number, month: number, day: number, minutes: number): number;
}

function calendarOf(context: DueTimeContext): LocalCalendar {
  const zone = context.timeZone;
  if (zone !== undefined) {
    return {
      today(nowMs) {
        const p = zonedParts(nowMs, zone);
        return { ...p, minutes: p.hour * 60 + p.minute };
      },
      toInstant: (year, month, day, minutes) => zonedTimeToUtc({ year, month, day, minutes }, zone),
    };
  }
  const offset = context.offsetMinutes;
  return {
    today(nowMs) {
      const local = new Date(nowMs + offset * MINUTE_MS);
      return {
        year: local.getUTCFullYear(),
        month: local.getUTCMonth() + 1,
        day: local.getUTCDate(),
        weekday: local.getUTCDay(),
        minutes: local.getUTCHours() * 60 + local.getUTCMinutes(),
      };
    },
    toInstant: (year, month, day, minutes) => Date.UTC(year, month - 1, day) + (minutes - offset) * MINUTE_MS,
  };
}

function isoDate(iso: string, minutes: number, calendar: LocalCalendar): string | undefined {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
    return undefined;
  return new Date(calendar.toInstant(y, m, d, minutes)).toISOString();
}

function relativeDay(
  day: string | undefined,
  weekday: string | undefined,
  minutes: number,
  nowMs: number,
  calendar: LocalCalendar,
): string {
  const today = calendar.today(nowMs);
  let addDays = 0;
  if (day === "tomorrow") addDays = 1;
  else if (weekday !== undefined) {
    // "on friday" said on a Friday means next week's.
    addDays = (WEEKDAYS.indexOf(weekday) - today.weekday + 7) % 7 || 7;
  } else if (day === undefined && minutes <= today.minutes) {
    // A bare time already past today means tomorrow.
    addDays = 1;
  }
  // Date.UTC carries day overflow into the next month and year.
  const target = new Date(Date.UTC(today.year, today.month - 1, today.day + addDays));
  const instant = calendar.toInstant(
    target.getUTCFullYear(),
    target.getUTCMonth() + 1,
    target.getUTCDate(),
    minutes,
  );
  return new Date(instant).toISOString();
}
