import { ActionStatus, transitionAction } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTION_TRANSITIONS,
  ActionEvent,
  APPROVABLE_ACTION_STATUSES,
  applyActionEvents,
  isTerminalActionStatus,
} from "../../src/permission-gate/state-machine.js";

const statusArb = fc.constantFrom(...ActionStatus.options);
const eventArb = fc.constantFrom(...ActionEvent.options);

describe("permission-gate state machine", () => {
  it("allows exactly the moves of the gate", () => {
    const allowed: string[] = [];
    for (const status of ActionStatus.options) {
      for (const event of ActionEvent.options) {
        const step = transitionAction(status, event);
        if (step.ok) allowed.push(`${status} -${event}-> ${step.value}`);
      }
    }
    expect(allowed.sort()).toEqual(
      [
        "proposed -approve-> approved",
        "proposed -defer-> deferred",
        "deferred -approve-> approved",
        "approved -start-> executing",
        "executing -succeed-> succeeded",
        "executing -fail-> failed",
        "failed -approve-> approved",
      ].sort(),
    );
  });

  it("reports a disallowed move as an invalid_transition issue naming both sides", () => {
    const step = transitionAction("succeeded", "approve");
    expect(step.ok).toBe(false);
    if (step.ok) return;
    expect(step.issues).toEqual([
      {
        code: "invalid_transition",
        message: "An action that is succeeded cannot approve.",
        path: ["status"],
      },
    ]);
    expect(transitionAction("executing", "defer").ok).toBe(false);
    expect(transitionAction("deferred", "defer").ok).toBe(false);
  });

  it("treats a status it does not know as having no moves", () => {
    const step = transitionAction("cancelled" as ActionStatus, "approve");
    expect(step.ok).toBe(false);
    expect(transitionAction("toString" as ActionStatus, "approve").ok).toBe(false);
    expect(transitionAction("proposed", "toString" as ActionEvent).ok).toBe(false);
  });

  it("runs a retry path and stops at the first bad event", () => {
    expect(
      applyActionEvents("proposed", ["defer", "approve", "start", "fail", "approve", "start", "succeed"]),
    ).toEqual({
      ok: true,
      value: "succeeded",
    });
    const stuck = applyActionEvents("proposed", ["approve", "start", "succeed", "approve"]);
    expect(stuck.ok).toBe(false);
  });

  it("only proposed, deferred and failed can be approved; only succeeded is terminal", () => {
    expect([...APPROVABLE_ACTION_STATUSES].sort()).toEqual(["deferred", "failed", "proposed"]);
    expect(ActionStatus.options.filter(isTerminalActionStatus)).toEqual(["succeeded"]);
    expect(Object.isFrozen(ACTION_TRANSITIONS)).toBe(true);
    expect(Object.isFrozen(ACTION_TRANSITIONS.proposed)).toBe(true);
  });

  it("property: no event sequence reaches a status outside the enum, and succeeded is terminal", () => {
    fc.assert(
      fc.property(statusArb, fc.array(eventArb, { maxLength: 40 }), (start, events) => {
        let status = start;
        let succeeded = status === "succeeded";
        for (const event of events) {
          const step = transitionAction(status, event);
          if (succeeded) expect(step.ok).toBe(false);
          if (!step.ok) continue;
          expect(ActionStatus.options).toContain(step.value);
          status = step.value;
          succeeded ||= status === "succeeded";
        }
        expect(ActionStatus.options).toContain(status);
      }),
    );
  });

  it("property: every accepted start directly follows an accepted approve, and succeeds at most once", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (events) => {
        let status: ActionStatus = "proposed";
        let previous: ActionEvent | null = null;
        let successes = 0;
        for (const event of events) {
          const step = transitionAction(status, event);
          if (!step.ok) continue;
          if (event === "start") expect(previous).toBe("approve");
          if (event === "succeed") successes += 1;
          status = step.value;
          previous = event;
        }
        expect(successes).toBeLessThanOrEqual(1);
      }),
    );
  });
});
