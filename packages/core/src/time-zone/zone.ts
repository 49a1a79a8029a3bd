/**
 * IANA time-zone math on the platform's `Intl` (Node and browsers): no zone database is bundled, so
 * a zone the runtime does not know is refused rather than guessed.
 */

const MINUTE_MS = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Bound on the formatter cache (a client may send many zone names; each valid one is cached). */
const MAX_FORMATTERS = 1_000;

/** Local calendar fields of an instant in a zone (month 1..12, weekday 0 = Sunday). */
export interface ZonedParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly weekday: number;
}

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  const known = formatters.get(zone);
  if (known !== undefined) return known;
  let made: Intl.DateTimeFormat;
  try {
    made = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
    });
  } catch {
    return null;
  }
  if (formatters.size >= MAX_FORMATTERS) formatters.clear();
  formatters.set(zone, made);
  return made;
}

/** Zone names are IANA identifiers ("Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/** True when `zone` is an IANA time-zone name the runtime knows. Offsets like "+02:00" are refused. */
export function isValidTimeZone(zone: string): boolean {
  return zone.length <= 64 && ZONE_NAME.test(zone) && formatterFor(zone) !== null;
}

const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  Sun: 0,
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
};

/** The local calendar fields of `instantMs` in `zone` (the zone must be valid). */
export function zonedParts(instantMs: number, zone: string): ZonedParts {
  const formatter = formatterFor(zone);
  if (formatter === null) throw new RangeError(`Unknown time zone: ${zone}`);
  const fields: Record<string, string> = {};
  for (const part of formatter.formatToParts(new Date(instantMs))) fields[part.type] = part.value;
  return {
    year: Number(fields.year),
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour) % 24,
    minute: Number(fields.minute),
    weekday: WEEKDAY_INDEX[fields.weekday ?? ""] ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in minutes (Paris in summer is 120). */
export function zoneOffsetMinutes(instantMs: number, zone: string): number {
  const p = zonedParts(instantMs, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  const floored = Math.floor(instantMs / MINUTE_MS) * MINUTE_MS;
  return Math.round((asUtc - floored) / MINUTE_MS);
}

/**
 * The instant of a local wall-clock time in a zone. Two passes settle the offset; a time a DST jump
 * skips lands just after the jump, a repeated one on one of its two occurrences.
 */
export function zonedTimeToUtc(
  local: { readonly year: number; readonly month: number; readonly day: number; readonly minutes: number },
  zone: string,
): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day) + local.minutes * MINUTE_MS;
  const guess = wall - zoneOffsetMinutes(wall, zone) * MINUTE_MS;
  return wall - zoneOffsetMinutes(guess, zone) * MINUTE_MS;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An instant as a person reads it in a zone: "Thu 6 Mar 2025, 09:00 (Europe/Paris)". */
export function formatInZone(instantMs: number, zone: string): string {
  const p = zonedParts(instantMs, zone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[p.weekday]} ${p.day} ${MONTHS[p.month - 1]} ${p.year}, ${pad(p.hour)}:${pad(p.minute)} (${zone})`;
}

/** An instant as an RFC 9557 string in a zone: local time, offset and zone ("2025-03-06T09:00:00+01:00[Europe/Paris]"). */
export function zonedIsoString(instantMs: number, zone: string): string {
  const offset = zoneOffsetMinutes(instantMs, zone);
  const local = new Date(Math.floor(instantMs / MINUTE_MS) * MINUTE_MS + offset * MINUTE_MS).toISOString();
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local.slice(0, 19)}${sign}${hh}:${mm}[${zone}]`;
}
