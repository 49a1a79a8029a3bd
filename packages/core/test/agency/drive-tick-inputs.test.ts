import { DRIVE_TICK_INTERVAL_MS, decideDriveTick, isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { DriveTickInput } from "../../src/agency/drive-tick.js";
import { taskWithGoal } from "./fixtures.js";

const NOW = 1_700_000_000_000;
const CALM = { health: 20, food: 20, hostiles: 0, gameMode: "survival", inventory: {} };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isSolError(error) ? error.code : `not a SolError: ${String(error)}`;
  }
  return undefined;
}

const decide = (input: Partial<DriveTickInput>) =>
  decideDriveTick({ world: CALM, tasks: [], nowMs: NOW, lastDriveTickMs: null, ...input });

describe("decideDriveTick input checks (the timer gate never fails open)", () => {
  it.each([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a string", "1700000000000"],
    ["undefined", undefined],
  ])("refuses nowMs %s with invalid_input instead of firing", (_name, nowMs) => {
    expect(codeOf(() => decide({ nowMs: nowMs as number, lastDriveTickMs: NOW }))).toBe("invalid_input");
    expect(codeOf(() => decide({ nowMs: nowMs as number }))).toBe("invalid_input");
  });

  it.each([
    ["NaN", Number.NaN],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["a string", "0"],
  ])("refuses lastDriveTickMs %s with invalid_input instead of skipping the interval", (_name, last) => {
    expect(codeOf(() => decide({ lastDriveTickMs: last as number }))).toBe("invalid_input");
  });

  it("still fires once the interval has elapsed, and never when it has not", () => {
    expect(decide({ lastDriveTickMs: NOW - DRIVE_TICK_INTERVAL_MS }).fire).toBe(true);
    expect(decide({ lastDriveTickMs: NOW - DRIVE_TICK_INTERVAL_MS + 1 })).toEqual({
      fire: false,
      reason: "interval",
    });
  });

  it("refuses tasks that are not an array with invalid_input (not a TypeError)", () => {
    expect(codeOf(() => decide({ tasks: undefined as never }))).toBe("invalid_input");
    expect(codeOf(() => decide({ tasks: {} as never }))).toBe("invalid_input");
  });

  it("skips null entries in tasks and still sees a real duplicate", () => {
    const held = taskWithGoal("collect:oak_log", { createdAt: NOW - 1_000 });
    expect(decide({ tasks: [null as never] }).fire).toBe(true);
    expect(decide({ tasks: [null as never, held] })).toEqual({ fire: false, reason: "duplicate_goal" });
  });
});
