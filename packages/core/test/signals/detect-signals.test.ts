import { decideBreakpointAction, detectSignals, type SignalCandidate } from "@solserver/core";
import { describe, expect, it } from "vitest";

const kinds = (signals: readonly SignalCandidate[]) => signals.map((s) => s.kind).sort();
const detect = (userMessage: string, assistantText?: string) =>
  kinds(detectSignals({ userMessage, assistantText }));

describe("detectSignals: the issue's examples", () => {
  it('"We decided to sell the house." is decision_made, a must for the breakpoint engine', () => {
    const signals = detectSignals({ userMessage: "We decided to sell the house." });
    expect(kinds(signals)).toEqual(["decision_made"]);
    const message = "We decided to sell the house.";
    expect(decideBreakpointAction({ message, signalKinds: signals.map((s) => s.kind) })).toBe("must");
  });

  it('"ok thanks" is only ack_only, so the turn stays skip', () => {
    const signals = detectSignals({ userMessage: "ok thanks", assistantText: "You're welcome!" });
    expect(kinds(signals)).toEqual(["ack_only"]);
    expect(decideBreakpointAction({ message: "ok thanks", signalKinds: signals.map((s) => s.kind) })).toBe(
      "skip",
    );
  });

  it("every candidate is a server signal with a confidence in [0, 1] and a short summary", () => {
    const signals = detectSignals({
      userMessage: "We decided to go ahead, but I'm worried about the cost. Remind me to call the bank.",
    });
    expect(kinds(signals)).toEqual(["decision_made", "open_loop_created", "risk_or_conflict"]);
    for (const signal of signals) {
      expect(signal.source).toBe("server");
      expect(signal.confidence).toBeGreaterThanOrEqual(0.5);
      expect(signal.confidence).toBeLessThanOrEqual(1);
      expect(signal.summary?.length ?? 0).toBeLessThanOrEqual(180);
    }
  });
});

describe("detectSignals: decisions need a committed speaker", () => {
  it.each([
    "We haven't decided whether to sell the house.",
    "Should we decide on the venue this week?",
    "If we decided to sell, what would it cost?",
    "My sister decided to quit her job.",
    "Maybe we'll go with the smaller venue.",
    "I don't think we decided anything yet.",
  ])("%s is not decision_made", (message) => {
    expect(detect(message)).not.toContain("decision_made");
  });

  it("a negation before a comma does not reach the decision after it", () => {
    expect(detect("Change of plans: we're not moving, we decided to stay.")).toContain("decision_made");
  });

  it("taking one of the options the assistant offered is a decision", () => {
    const previousAssistantText = "Do you want to refinance now or wait?";
    const signals = detectSignals({ userMessage: "The first one.", previousAssistantText });
    expect(kinds(signals)).toEqual(["decision_made"]);
    expect(kinds(detectSignals({ userMessage: "The first one." }))).toEqual([]);
  });
});

describe("detectSignals: the other kinds", () => {
  it("a constraint change is scope_changed, a question about it is not", () => {
    expect(detect("Also, the budget is now 5000 instead of 3000.")).toEqual(["scope_changed"]);
    expect(detect("Does the itinerary include Porto?")).toEqual([]);
  });

  it("a topic change is a pivot and not also a narrowed scope", () => {
    expect(detect("Forget the kitchen, let's talk about my retirement savings.")).toEqual(["pivot"]);
    expect(detect("Let's continue with the kitchen plan.")).toEqual([]);
  });

  it("answer_provided needs a question and a reply that answers rather than asks back", () => {
    const question = "How long should I boil an egg?";
    expect(detect(question, "Boil a large egg for 6 to 7 minutes, then cool it in ice water.")).toEqual([
      "answer_provided",
    ]);
    expect(detect(question, "How do you like your yolk, soft or hard?")).toEqual([]);
    expect(detect("I went for a run.", "Nice, running in the morning is a great habit to keep up.")).toEqual(
      [],
    );
  });

  it("open loops come from the user's asks and from the assistant's commitments", () => {
    expect(detect("Remind me to call the plumber on Thursday.")).toEqual(["open_loop_created"]);
    expect(detect("No need to remind me, it's in my calendar.")).toEqual([]);
    expect(detect("Thanks. Let me know.", "Will do. I'll check the three listings and report back.")).toEqual(
      ["open_loop_created"],
    );
  });

  it("a done task is open_loop_resolved, surer when it names an open loop", () => {
    expect(detect("Booked the vet for Tuesday at 3.")).toEqual(["open_loop_resolved"]);
    expect(detect("I haven't sent the email yet.")).toEqual([]);
    expect(detect("Did you send the email?")).toEqual([]);
    const plain = detectSignals({ userMessage: "Sent the invoice." })[0];
    const named = detectSignals({ userMessage: "Sent the invoice.", openLoops: ["Send the invoice"] })[0];
    expect(named?.confidence).toBeGreaterThan(plain?.confidence ?? 1);
  });

  const EGG_REPLY = "Boil a large egg for 6 to 7 minutes, then cool it in ice water.";

  it("a user message read again (before and after the reply) gives what a first reading gives", () => {
    const userMessage = "Sent the invoice. How long should I boil an egg?";
    const openLoops = ["Send the invoice"];
    const first = detectSignals({ userMessage, openLoops });
    // The reply adds answer_provided to that call only; the next reading of the message has none.
    const replied = detectSignals({ userMessage, openLoops, assistantText: EGG_REPLY });
    expect(kinds(replied)).toEqual([...kinds(first), "answer_provided"].sort());
    const again = detectSignals({ userMessage, openLoops });
    expect(again).toEqual(first);
    // Other open loops are another input: the resolution is not taken as naming one.
    const other = detectSignals({ userMessage, openLoops: ["Call the bank"] });
    const resolved = (list: readonly SignalCandidate[]) =>
      list.find((s) => s.kind === "open_loop_resolved")?.confidence ?? 0;
    expect(resolved(first)).toBeGreaterThan(resolved(other));
    expect(resolved(other)).toBeGreaterThan(0);
  });

  it("a worry or clash is risk_or_conflict, its denial is not", () => {
    expect(detect("I'm worried we can't afford the mortgage.")).toEqual(["risk_or_conflict"]);
    expect(detect("That conflicts with my dentist appointment.")).toEqual(["risk_or_conflict"]);
    expect(detect("I'm not worried about the budget at all.")).toEqual([]);
    expect(detect("No concerns, there's no conflict with the dentist.")).toEqual([]);
  });

  it("minConfidence filters weak candidates", () => {
    const input = { userMessage: "We decided to sell the house." };
    expect(detectSignals(input, { minConfidence: 0.99 })).toEqual([]);
  });
});

describe("detectSignals on long input", () => {
  // Cue patterns backtrack over long clauses: before clauses were bounded, 40k characters of
  // "ok, ok, …" took over 20 seconds. The bound here is loose so a busy machine does not fail it.
  it("reads a pasted 40k-character message in well under five seconds and still finds cues at its end", () => {
    const message = `${"ok, ".repeat(10_000)}fine. ${"Some pasted notes here. ".repeat(500)}We decided to sell the house.`;
    const started = Date.now();
    const signals = detectSignals({ userMessage: message, assistantText: message });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(signals.map((s) => s.kind)).toContain("decision_made");
  });
});
