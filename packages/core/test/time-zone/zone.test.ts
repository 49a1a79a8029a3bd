import { describe, expect, it } from "vitest";
import {
  formatInZone,
  isValidTimeZone,
  PacketInput,
  zonedIsoString,
  zonedParts,
  zonedTimeToUtc,
  zoneOffsetMinutes,
} from "../../src/index.js";

describe("time-zone math on Intl", () => {
  it("knows IANA zones and refuses offsets, abbreviations and unknown names", () => {
    for (const zone of [
      "UTC",
      "Europe/Paris",
      "America/New_York",
      "Asia/Tokyo",
      "America/Argentina/Buenos_Aires",
    ]) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
    for (const zone of ["", "+02:00", "Mars/Olympus", "Europe/Paris/../x", "x".repeat(80)]) {
      expect(isValidTimeZone(zone)).toBe(false);
    }
  });

  it("reads offsets across DST", () => {
    expect(zoneOffsetMinutes(Date.parse("2025-01-15T12:00:00Z"), "Europe/Paris")).toBe(60);
    expect(zoneOffsetMinutes(Date.parse("2025-07-15T12:00:00Z"), "Europe/Paris")).toBe(120);
    expect(zoneOffsetMinutes(Date.parse("2025-07-15T12:00:00Z"), "America/New_York")).toBe(-240);
    expect(zoneOffsetMinutes(Date.parse("2025-07-15T12:00:00Z"), "Asia/Kolkata")).toBe(330);
  });

  it("turns local wall time into the instant, DST edges included", () => {
    const at = (zone: string, y: number, m: number, d: number, h: number) =>
      new Date(zonedTimeToUtc({ year: y, month: m, day: d, minutes: h * 60 }, zone)).toISOString();
    expect(at("America/New_York", 2025, 3, 6, 9)).toBe("2025-03-06T14:00:00.000Z");
    expect(at("America/New_York", 2025, 3, 10, 9)).toBe("2025-03-10T13:00:00.000Z");
    expect(at("Asia/Tokyo", 2025, 3, 6, 9)).toBe("2025-03-06T00:00:00.000Z");
    // 02:30 does not exist in Paris on 2025-03-30: it lands after the jump.
    expect(at("Europe/Paris", 2025, 3, 30, 2.5)).toBe("2025-03-30T01:30:00.000Z");
    const parts = zonedParts(Date.parse("2025-03-05T23:30:00Z"), "Asia/Tokyo");
    expect(parts).toEqual({ year: 2025, month: 3, day: 6, hour: 8, minute: 30, weekday: 4 });
  });

  it("formats for people and as RFC 9557", () => {
    const instant = Date.parse("2025-03-06T14:00:00Z");
    expect(formatInZone(instant, "America/New_York")).toBe("Thu 6 Mar 2025, 09:00 (America/New_York)");
    expect(zonedIsoString(instant, "America/New_York")).toBe("2025-03-06T09:00:00-05:00[America/New_York]");
    expect(zonedIsoString(instant, "Asia/Kolkata")).toBe("2025-03-06T19:30:00+05:30[Asia/Kolkata]");
  });

  it("PacketInput checks meta.timezone and names the field", () => {
    const base = { requestId: "r1", threadId: "t1", message: "hi" };
    expect(PacketInput.safeParse({ ...base, meta: { timezone: "Europe/Paris" } }).success).toBe(true);
    const bad = PacketInput.safeParse({ ...base, meta: { timezone: "Paris" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["meta", "timezone"]);
    expect(PacketInput.safeParse({ ...base, meta: { timezone: 5 } }).success).toBe(false);
  });
});
