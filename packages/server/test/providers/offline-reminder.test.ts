import { createManualClock, EnvelopeActionNeeded } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createOfflineProvider, detectReminder, resolveDueTime } from "../../src/index.js";
import { mainRequest, parseEnvelope } from "./helpers.js";

// Wednesday 2025-03-05, 12:00 UTC.
const NOW = Date.parse("2025-03-05T12:00:00.000Z");
const clock = createManualClock(NOW);
const at = (nowMs = NOW, offsetMinutes = 0) => ({ nowMs, offsetMinutes });
const noClock = { offsetMinutes: 0 };

describe("remind-me detection", () => {
  it("builds a create_reminder action with a resolved due time", async () => {
    const provider = createOfflineProvider({ clock });
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("Remind me to call mom tomorrow at 9"))).text,
    );
    const actions = envelope.meta?.action_needed ?? [];
    expect(actions).toEqual([
      {
        action_kind: "create_reminder",
        action_label: "Create Reminder",
        action_summary_bullets: [
          "Create a reminder: call mom",
          "Due: tomorrow at 9 (Thu 6 Mar 2025, 09:00 (UTC))",
        ],
        action_target: "Reminders",
        action_data_used: "title, due time",
        action_why: "You asked me to remind you.",
        action_payload: { title: "call mom", due: "2025-03-06T09:00:00.000Z" },
      },
    ]);
    expect(EnvelopeActionNeeded.safeParse(actions[0]).success).toBe(true);
    expect(envelope.meta?.shape?.next).toContain("call mom");
    expect(envelope.meta?.signals?.map((s) => s.kind)).toContain("open_loop_created");
  });

  it("reads the due time in the configured time zone", async () => {
    const provider = createOfflineProvider({ clock, timeZoneOffsetMinutes: 120 });
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("remind me to call mom tomorrow at 9"))).text,
    );
    expect(envelope.meta?.action_needed?.[0]?.action_payload?.due).toBe("2025-03-06T07:00:00.000Z");
  });

  it("reads the due time in the request's IANA zone (hints.timeZone) and names it", async () => {
    const provider = createOfflineProvider({ clock, timeZoneOffsetMinutes: 120 });
    const zoned = mainRequest("remind me to call mom tomorrow at 9", { timeZone: "America/New_York" });
    const action = parseEnvelope((await provider.complete(zoned)).text).meta?.action_needed?.[0];
    expect(action?.action_payload).toEqual({
      title: "call mom",
      due: "2025-03-06T14:00:00.000Z",
      timezone: "America/New_York",
    });
    expect(action?.action_summary_bullets).toContain(
      "Due: tomorrow at 9 (Thu 6 Mar 2025, 09:00 (America/New_York))",
    );
  });

  it("keeps the raw phrase as due without a clock or when it cannot be read", async () => {
    const noClock = createOfflineProvider();
    const a = parseEnvelope(
      (await noClock.complete(mainRequest("remind me to call mom tomorrow at 9"))).text,
    );
    expect(a.meta?.action_needed?.[0]?.action_payload).toEqual({ title: "call mom", due: "tomorrow at 9" });
    const provider = createOfflineProvider({ clock });
    const b = parseEnvelope(
      (await provider.complete(mainRequest("Remind me about the dentist on the 5th."))).text,
    );
    expect(b.meta?.action_needed?.[0]?.action_payload).toEqual({ title: "the dentist", due: "on the 5th" });
  });

  it("omits due when no time is given", async () => {
    const provider = createOfflineProvider({ clock });
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("please remind me to buy milk"))).text,
    );
    const action = envelope.meta?.action_needed?.[0];
    expect(action?.action_summary_bullets).toEqual(["Create a reminder: buy milk"]);
    expect(action?.action_payload).toEqual({ title: "buy milk" });
    expect(action?.action_data_used).toBe("title");
  });

  it("adds no action when nobody asked for a reminder", async () => {
    const provider = createOfflineProvider({ clock });
    for (const message of ["I need to call mom tomorrow", "remind me", "that reminds me of something"]) {
      const envelope = parseEnvelope((await provider.complete(mainRequest(message))).text);
      expect(envelope.meta?.action_needed).toBeUndefined();
    }
  });

  it("splits the title from the due phrase in several word orders", () => {
    expect(detectReminder("Remind me tomorrow to water the plants. Then lunch.")).toEqual({
      title: "water the plants",
      when: "tomorrow",
    });
    expect(detectReminder("ok, remind me to pay rent on friday at 5pm!")).toEqual({
      title: "pay rent",
      when: "on friday at 5pm",
    });
    expect(detectReminder("remind me to stretch in 2 hours")).toEqual({
      title: "stretch",
      when: "in 2 hours",
    });
    expect(detectReminder("remind me that the 3 mondays rule applies")).toEqual({
      title: "the 3 mondays rule applies",
    });
    expect(detectReminder("remind me to")).toBeUndefined();
  });
});

describe("due time resolution", () => {
  it("resolves days, weekdays, periods and bare times against now", () => {
    expect(resolveDueTime("tomorrow at 9", at())).toBe("2025-03-06T09:00:00.000Z");
    expect(resolveDueTime("tomorrow evening at 7", at())).toBe("2025-03-06T19:00:00.000Z");
    expect(resolveDueTime("tomorrow morning", at())).toBe("2025-03-06T09:00:00.000Z");
    expect(resolveDueTime("tonight", at())).toBe("2025-03-05T20:00:00.000Z");
    expect(resolveDueTime("at 5pm", at())).toBe("2025-03-05T17:00:00.000Z");
    // 9am has passed at noon: the next one is tomorrow.
    expect(resolveDueTime("at 9am", at())).toBe("2025-03-06T09:00:00.000Z");
    expect(resolveDueTime("at noon tomorrow", at())).toBe("2025-03-06T12:00:00.000Z");
    expect(resolveDueTime("on friday", at())).toBe("2025-03-07T09:00:00.000Z");
    // Said on a Wednesday, "on wednesday" is next week's.
    expect(resolveDueTime("on wednesday at 12am", at())).toBe("2025-03-12T00:00:00.000Z");
    expect(resolveDueTime("in 2 hours", at())).toBe("2025-03-05T14:00:00.000Z");
    expect(resolveDueTime("in a day", at())).toBe("2025-03-06T12:00:00.000Z");
    expect(resolveDueTime("this afternoon", at())).toBe("2025-03-05T15:00:00.000Z");
  });

  it("resolves absolute dates without a clock and refuses nonsense", () => {
    expect(resolveDueTime("on 2025-04-01 at 14:30", noClock)).toBe("2025-04-01T14:30:00.000Z");
    expect(resolveDueTime("tomorrow", noClock)).toBeUndefined();
    expect(resolveDueTime("at 25", at())).toBeUndefined();
    expect(resolveDueTime("on 2025-02-30", at())).toBeUndefined();
    expect(resolveDueTime("next week", at())).toBeUndefined();
    expect(resolveDueTime("at 13pm", at())).toBeUndefined();
  });

  it("applies the time-zone offset to both reading and the returned instant", () => {
    // 23:30 UTC on Wednesday is already Thursday 01:30 at UTC+2: "tomorrow" is Friday there.
    const lateNight = Date.parse("2025-03-05T23:30:00.000Z");
    expect(resolveDueTime("tomorrow at 9", at(lateNight, 120))).toBe("2025-03-07T07:00:00.000Z");
    expect(resolveDueTime("tomorrow at 9", at(lateNight, -300))).toBe("2025-03-06T14:00:00.000Z");
  });
});
