import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeIcsText, foldIcsLine, renderIcs } from "../../src/index.js";
import { parseIcs, unescapeIcsText } from "../support/ics-parse.js";

describe("iCalendar export", () => {
  it("escapes backslash, semicolon, comma and newlines, and drops control characters", () => {
    expect(escapeIcsText("a\\b;c,d\ne\r\nf\u0007g\th")).toBe("a\\\\b\\;c\\,d\\ne\\nfg\th");
  });

  it("property: folded lines fit 75 octets, never split a character, and unfold to the original", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        const line = `SUMMARY:${escapeIcsText(text)}`;
        const folded = foldIcsLine(line);
        for (const part of folded.split("\r\n"))
          expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
        expect(folded.replaceAll("\r\n ", "")).toBe(line);
      }),
    );
  });

  it("renders a valid VCALENDAR with timed and all-day events", () => {
    const text = renderIcs(
      [
        {
          uid: "evt-1@solserver",
          title: "Dentist; check-up, room 4\nbring the card",
          start: "2026-01-02T09:00:00+02:00",
          end: "2026-01-02T10:30:00.000Z",
          location: "Main St. 1, Springfield",
          stamp: "2026-01-01T08:00:00.000Z",
        },
        {
          uid: "evt-2@solserver",
          title: "Holiday",
          start: "2026-01-05",
          end: null,
          location: null,
          stamp: "2026-01-01T08:00:00.000Z",
        },
      ],
      { name: "SolServer" },
    );
    const cal = parseIcs(text);
    expect(cal.name).toBe("VCALENDAR");
    expect(cal.props.get("VERSION")).toEqual(["2.0"]);
    expect(cal.props.get("PRODID")?.[0]).toMatch(/SolServer/);
    const [timed, allDay] = cal.children;
    expect(cal.children.map((c) => c.name)).toEqual(["VEVENT", "VEVENT"]);
    expect(timed?.props.get("UID")).toEqual(["evt-1@solserver"]);
    expect(timed?.props.get("DTSTAMP")).toEqual(["20260101T080000Z"]);
    expect(timed?.props.get("DTSTART")).toEqual(["20260102T070000Z"]);
    expect(timed?.props.get("DTEND")).toEqual(["20260102T103000Z"]);
    expect(unescapeIcsText(timed?.props.get("SUMMARY")?.[0] ?? "")).toBe(
      "Dentist; check-up, room 4\nbring the card",
    );
    expect(unescapeIcsText(timed?.props.get("LOCATION")?.[0] ?? "")).toBe("Main St. 1, Springfield");
    expect(allDay?.props.get("DTSTART;VALUE=DATE")).toEqual(["20260105"]);
    expect(allDay?.props.has("DTEND")).toBe(false);
    expect(allDay?.props.has("LOCATION")).toBe(false);
  });

  it("omits DTEND when the end is not later than the start (RFC 5545 §3.8.2.2: DTEND must be later)", () => {
    const event = (uid: string, start: string, end: string) => ({
      uid,
      title: uid,
      start,
      end,
      location: null,
      stamp: "2026-01-01T08:00:00.000Z",
    });
    const cal = parseIcs(
      renderIcs([
        event("same-day", "2026-03-10", "2026-03-10"),
        event("same-instant", "2026-03-10T10:00:00+01:00", "2026-03-10T09:00:00.000Z"),
        event("two-days", "2026-03-10", "2026-03-12"),
        event("an-hour", "2026-03-10T09:00:00.000Z", "2026-03-10T10:00:00.000Z"),
      ]),
    );
    const ends = cal.children.map((c) => c.props.get("DTEND;VALUE=DATE") ?? c.props.get("DTEND") ?? null);
    expect(ends).toEqual([null, null, ["20260312"], ["20260310T100000Z"]]);
  });

  it("renders an empty calendar when there are no events", () => {
    const cal = parseIcs(renderIcs([]));
    expect(cal.children).toEqual([]);
  });
});
