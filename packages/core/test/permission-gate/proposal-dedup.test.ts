import { decideProposal, userAsksForAction } from "@solserver/core";
import { describe, expect, it } from "vitest";
import {
  type IdenticalAction,
  PROPOSAL_BLOCKING_STATUSES,
} from "../../src/permission-gate/proposal-dedup.js";

const earlier = (
  status: IdenticalAction["status"],
  requestId = "r-old",
  actionId = "act-old",
): IdenticalAction => ({
  actionId,
  requestId,
  status,
});

describe("proposal dedup rule", () => {
  it("reuses the action a retried request already made, whatever its status", () => {
    expect(
      decideProposal({ requestId: "r1", explicitRequest: true, identical: [earlier("failed", "r1")] }),
    ).toEqual({
      kind: "replay",
      actionId: "act-old",
    });
  });

  it("suppresses an identical proposal the user did not ask for while one is pending, running or done", () => {
    for (const status of PROPOSAL_BLOCKING_STATUSES) {
      expect(
        decideProposal({ requestId: "r2", explicitRequest: false, identical: [earlier(status)] }),
      ).toEqual({
        kind: "suppress",
        actionId: "act-old",
      });
    }
  });

  it("proposes again when the user asks again, or when the earlier one failed, or there is none", () => {
    expect(
      decideProposal({ requestId: "r2", explicitRequest: true, identical: [earlier("proposed")] }).kind,
    ).toBe("propose");
    expect(
      decideProposal({ requestId: "r2", explicitRequest: false, identical: [earlier("failed")] }).kind,
    ).toBe("propose");
    expect(decideProposal({ requestId: "r2", explicitRequest: false, identical: [] }).kind).toBe("propose");
  });

  it("points a suppression at the latest blocking action", () => {
    const identical = [
      earlier("succeeded", "a", "act-1"),
      earlier("failed", "b", "act-2"),
      earlier("deferred", "c", "act-3"),
    ];
    expect(decideProposal({ requestId: "d", explicitRequest: false, identical })).toEqual({
      kind: "suppress",
      actionId: "act-3",
    });
  });
});

describe("userAsksForAction", () => {
  it("recognises requests for the built-in kinds", () => {
    expect(userAsksForAction("Remind me to call the bank tomorrow at 9", "create_reminder")).toBe(true);
    expect(userAsksForAction("can you set a reminder for the dentist", "create_reminder")).toBe(true);
    expect(userAsksForAction("Put the dentist on my calendar for Friday", "create_calendar_event")).toBe(
      true,
    );
    expect(userAsksForAction("schedule a meeting with Sam", "create_calendar_event")).toBe(true);
    expect(userAsksForAction("please send the webhook", "webhook")).toBe(true);
  });

  it("does not treat thanks, chatter or another kind's request as asking", () => {
    expect(userAsksForAction("thanks!", "create_reminder")).toBe(false);
    expect(userAsksForAction("thanks for the reminder", "create_reminder")).toBe(false);
    expect(userAsksForAction("remind me to call the bank", "create_calendar_event")).toBe(false);
    expect(userAsksForAction("what is on my calendar?", "create_calendar_event")).toBe(false);
    expect(userAsksForAction("Thanks again!", "create_reminder")).toBe(false);
    expect(userAsksForAction("thank you so much again, that helps", "webhook")).toBe(false);
    expect(userAsksForAction("ok, never again", "create_reminder")).toBe(false);
  });

  it("treats an explicit repeat as asking, for any kind", () => {
    expect(userAsksForAction("do that again please", "create_reminder")).toBe(true);
    expect(userAsksForAction("One more time", "webhook")).toBe(true);
    expect(userAsksForAction("thanks again, and do it again tomorrow", "create_reminder")).toBe(true);
  });

  it("builds a cue from the words of an unknown kind", () => {
    expect(userAsksForAction("send the summary email to Sam", "send_email")).toBe(true);
    expect(userAsksForAction("I read the email", "send_email")).toBe(false);
    expect(userAsksForAction("send it", "send")).toBe(false);
    expect(userAsksForAction("post (it) now", "a+b")).toBe(false);
  });
});
