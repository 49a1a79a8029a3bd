import {
  buildCheckpointCapsule,
  decisionsFromCapsule,
  isDecisionsQuestion,
  type ModeDecision,
  recallDecisions,
  renderDecisionsContext,
  type ThreadMementoV02,
} from "@solserver/core";
import { describe, expect, it } from "vitest";

describe("isDecisionsQuestion", () => {
  it.each([
    "What's decided?",
    "what is decided so far",
    "What have we decided?",
    "What did we decide about the car?",
    "what was agreed",
    "Can you recap our decisions?",
    "remind me of the decisions we made",
    "Decisions so far?",
    "Where did we land on the budget?",
  ])("asks: %s", (message) => {
    expect(isDecisionsQuestion(message)).toBe(true);
  });
  it.each([
    "How do I decide between two flats?",
    "We decided to sell the house.",
    "I can't decide what to cook",
    "decision fatigue is real",
    "ok thanks",
  ])("does not ask: %s", (message) => {
    expect(isDecisionsQuestion(message)).toBe(false);
  });
});

const decision: ModeDecision = {
  modeLabel: "assist",
  domainFlags: [],
  rigorConfig: { level: "normal", gates: [] },
  clusterIds: [],
  checkpointNeeded: true,
  confidence: 1,
  reasons: ["test"],
  version: "t",
  step: 1,
} as unknown as ModeDecision;

const memento = (decisions: string[]): ThreadMementoV02 =>
  ({
    id: "m",
    threadId: "t",
    createdAt: "2025-01-01T00:00:00.000Z",
    version: "memento-v0.2",
    arc: "Moving",
    active: [],
    parked: [],
    decisions,
    next: ["call the agent"],
  }) as unknown as ThreadMementoV02;

describe("recallDecisions", () => {
  it("reads a capsule's Decisions section and nothing else", () => {
    const capsule = buildCheckpointCapsule(memento(["sell the house", "move in June"]), decision);
    expect(decisionsFromCapsule(capsule)).toEqual(["sell the house", "move in June"]);
    expect(decisionsFromCapsule(buildCheckpointCapsule(memento([]), decision))).toEqual([]);
    expect(decisionsFromCapsule(buildCheckpointCapsule(null, decision))).toEqual([]);
  });

  it("puts the memento's decisions first and adds the checkpoint's it lacks, without duplicates", () => {
    const capsule = buildCheckpointCapsule(memento(["Sell the house", "keep the car"]), decision);
    const recall = recallDecisions(["sell the house", "move in June"], capsule);
    expect(recall).toEqual({
      decisions: ["sell the house", "move in June", "keep the car"],
      fromMemento: 2,
      fromCheckpoint: 1,
    });
    expect(renderDecisionsContext(recall)).toContain("- keep the car");
    expect(renderDecisionsContext(recallDecisions([], null))).toContain("no decisions yet");
  });
});
