/** One VEVENT of an iCalendar export. */
export interface IcsEvent {
  readonly uid: string;
  readonly title: string;
  /** An ISO date (all-day) or an ISO instant. */
  readonly start: string;
  readonly end: string | null;
  readonly location: string | null;
  /** When the event was created (an ISO instant): its DTSTAMP. */
  readonly stamp: string;
}

const CRLF = "\r\n";
const MAX_OCTETS = 75;

/** Escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines; drops controls. */
export function escapeIcsText(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, "\n")
    .replace(/(?![\t\n])\p{Cc}/gu, "")
    .replace(/[\\;,\n]/g, (ch) => (ch === "\n" ? "\\n" : `\\${ch}`));
}

/** Folds a content line into lines of at most 75 octets, never splitting a UTF-8 character (§3.1). */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, "utf8");
    // Continuation lines start with one space, which counts toward their 75 octets.
    const limit = parts.length === 0 ? MAX_OCTETS : MAX_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

function isDateOnly(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

/** `20260102T090000Z` for an instant (UTC). */
function utcStamp(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

function dateProperty(name: string, value: string): string {
  return isDateOnly(value) ? `${name};VALUE=DATE:${value.replaceAll("-", "")}` : `${name}:${utcStamp(value)}`;
}

/**
 * An event's DTEND "MUST be later in time than" its DTSTART (RFC 5545 §3.8.2.2). An end that is not
 * (the same day, or the same instant) is left out: without DTEND an all-day event lasts its one day
 * and a timed one is an instant, which is what such an end says.
 */
function endsAfterStart(start: string, end: string): boolean {
  return isDateOnly(start) && isDateOnly(end) ? end > start : Date.parse(end) > Date.parse(start);
}

/** Renders events as an iCalendar (RFC 5545) VCALENDAR with CRLF line endings. */
export function renderIcs(events: readonly IcsEvent[], options: { readonly name?: string } = {}): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//SolServer//Permission Gate//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...(options.name ? [`X-WR-CALNAME:${escapeIcsText(options.name)}`] : []),
  ];
  for (const event of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${escapeIcsText(event.uid)}`,
      `DTSTAMP:${utcStamp(event.stamp)}`,
      dateProperty("DTSTART", event.start),
      ...(event.end !== null && endsAfterStart(event.start, event.end)
        ? [dateProperty("DTEND", event.end)]
        : []),
      `SUMMARY:${escapeIcsText(event.title)}`,
      ...(event.location === null ? [] : [`LOCATION:${escapeIcsText(event.location)}`]),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldIcsLine).join(CRLF) + CRLF;
}
