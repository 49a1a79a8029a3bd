import {
  type BreakpointDecision,
  decideBreakpointAction,
  extractBreakpointSignalKinds,
  isAckOnlyMessage,
  shouldFreezeSummaryAtPeak,
  ThreadMementoSignalKind,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { ACK_TOKENS } from "../src/breakpoint/ack.js";
import {
  type BreakpointSignalKind,
  MUST_SIGNAL_KINDS,
  SHOULD_SIGNAL_KINDS,
} from "../src/breakpoint/signal-kinds.js";
import { validPacketInput } from "./fixtures/valid-contracts.js";
import { validMemento, validSignalItem } from "./fixtures/valid-memento.js";

describe("signal classification (breakpoint-engine.md, Signal Classification)", () => {
  it("MUST_SIGNAL_KINDS holds exactly the four direction-changing kinds", () => {
    expect([...MUST_SIGNAL_KINDS].sort()).toEqual([
      "answer_provided",
      "decision_made",
      "pivot",
      "scope_changed",
    ]);
  });

  it("SHOULD_SIGNAL_KINDS holds exactly the three open-loop/risk kinds", () => {
    expect([...SHOULD_SIGNAL_KINDS].sort()).toEqual([
      "open_loop_created",
      "open_loop_resolved",
      "risk_or_conflict",
    ]);
  });

  it("ack_only is in neither set and every other contract kind is in exactly one", () => {
    for (const kind of ThreadMementoSignalKind.options) {
      const memberships = Number(MUST_SIGNAL_KINDS.has(kind)) + Number(SHOULD_SIGNAL_KINDS.has(kind));
      expect(memberships, kind).toBe(kind === "ack_only" ? 0 : 1);
    }
  });

  it("ACK_TOKENS is the documented token set", () => {
    expect([...ACK_TOKENS].sort()).toEqual(
      [
        "ok",
        "okay",
        "kk",
        "thx",
        "thanks",
        "got",
        "it",
        "sounds",
        "good",
        "cool",
        "yep",
        "yup",
        "sure",
        "all",
        "right",
      ].sort(),
    );
  });
});

describe("isAckOnlyMessage", () => {
  // The four documented examples, then the normalisation rules one by one.
  it.each([
    ["ok thanks", true, "both tokens in the ack set"],
    ["Sounds good!", true, "both tokens match after normalisation"],
    ["ok let's do it", false, "let's and do are not ack tokens"],
    ["", false, "empty message"],
    ["  OK  ", true, "trimmed and lowercased"],
    ["ok,   thanks!!!", true, "punctuation stripped, whitespace collapsed"],
    ["got it.", true, "period stripped"],
    ["all right?", true, "question mark stripped"],
    ["Yep\tcool\nthx", true, "tabs and newlines collapse to spaces"],
    ["ok; thanks", false, "semicolon is not stripped, so 'ok;' is no token"],
    ["let's", false, "let's is not an ack token"],
    ["okay sure kk yup", true, "every token is an ack token"],
    ["thanks for the help", false, "for/the/help are not ack tokens"],
    ["?!.,", false, "only punctuation normalises to empty"],
    ["   ", false, "only whitespace"],
    ["okk", false, "tokens match whole words only"],
    ["ok !", false, "trimmed before stripping: the trailing space leaves an empty token"],
    ["! ok", false, "the leading space left by '!' makes an empty first token"],
    ["ok thanks .", false, "punctuation set apart by a space leaves an empty token"],
    ["ok! thanks.", true, "punctuation attached to a token just goes"],
  ])("%j -> %s (%s)", (message, expected) => {
    expect(isAckOnlyMessage(message)).toBe(expected);
  });

  it("accepts every single ack token on its own", () => {
    for (const token of ACK_TOKENS) expect(isAckOnlyMessage(token), token).toBe(true);
  });
});

describe("decideBreakpointAction: decision rules in priority order", () => {
  type Row = [string, Parameters<typeof decideBreakpointAction>[0], BreakpointDecision];
  const rows: Row[] = [
    // Priority 1: summaryChanged beats everything, even an ack with ack_only.
    ["1 summaryChanged -> must", { message: "ok", signalKinds: ["ack_only"], summaryChanged: true }, "must"],
    [
      "1 summaryChanged over should signals",
      { message: "x", signalKinds: ["risk_or_conflict"], summaryChanged: true },
      "must",
    ],
    // Priority 2: any MUST signal.
    ["2 decision_made -> must", { message: "let's go with pg16", signalKinds: ["decision_made"] }, "must"],
    ["2 scope_changed -> must", { message: "x", signalKinds: ["scope_changed"] }, "must"],
    ["2 pivot -> must", { message: "x", signalKinds: ["pivot"] }, "must"],
    ["2 answer_provided -> must", { message: "x", signalKinds: ["answer_provided"] }, "must"],
    [
      "2 MUST beats an ack message and ack_only",
      { message: "ok thanks", signalKinds: ["ack_only", "decision_made"] },
      "must",
    ],
    ["2 MUST beats SHOULD", { message: "x", signalKinds: ["open_loop_created", "pivot"] }, "must"],
    [
      "2 MUST beats pressure/drift",
      { message: "x", signalKinds: ["pivot"], contextWindowPressure: true, driftRisk: true },
      "must",
    ],
    // Priority 3: any SHOULD signal.
    ["3 open_loop_created -> should", { message: "ok", signalKinds: ["open_loop_created"] }, "should"],
    ["3 open_loop_resolved -> should", { message: "ok", signalKinds: ["open_loop_resolved"] }, "should"],
    [
      "3 risk_or_conflict beats ack_only",
      { message: "ok", signalKinds: ["ack_only", "risk_or_conflict"] },
      "should",
    ],
    // Priority 4: pressure or drift promote to should, never to must.
    ["4 contextWindowPressure beats an ack", { message: "ok thanks", contextWindowPressure: true }, "should"],
    ["4 driftRisk beats ack_only", { message: "ok", signalKinds: ["ack_only"], driftRisk: true }, "should"],
    // Priority 5: ack_only signal or an ack-only message.
    ["5 ack_only signal + ack message -> skip", { message: "ok thanks", signalKinds: ["ack_only"] }, "skip"],
    [
      "5 ack_only signal alone -> skip",
      { message: "please continue with the plan", signalKinds: ["ack_only"] },
      "skip",
    ],
    ["5 ack message alone -> skip", { message: "Sounds good!" }, "skip"],
    [
      "5 explicit false flags do not block skip",
      { message: "yep", contextWindowPressure: false, driftRisk: false, summaryChanged: false },
      "skip",
    ],
    // Priority 6: default.
    ["6 no signals, not an ack -> should", { message: "ok let's do it" }, "should"],
    ["6 empty signal list -> should", { message: "What about indexes?", signalKinds: [] }, "should"],
    ["6 empty message is not an ack -> should", { message: "" }, "should"],
  ];

  it.each(rows)("%s", (_, args, expected) => {
    expect(decideBreakpointAction(args)).toBe(expected);
  });
});

describe("shouldFreezeSummaryAtPeak: freeze table", () => {
  type Row = [string, Parameters<typeof shouldFreezeSummaryAtPeak>[0], boolean];
  const rows: Row[] = [
    ["peak + should -> freeze", { phase: "peak", intensityBucket: "med", decision: "should" }, true],
    ["peak + skip -> freeze", { phase: "peak", decision: "skip" }, true],
    ["high + should -> freeze", { phase: "settled", intensityBucket: "high", decision: "should" }, true],
    ["high + skip -> freeze", { intensityBucket: "high", decision: "skip" }, true],
    ["peak + high + should -> freeze", { phase: "peak", intensityBucket: "high", decision: "should" }, true],
    ["peak + must -> allow", { phase: "peak", decision: "must" }, false],
    ["high + must -> allow", { intensityBucket: "high", decision: "must" }, false],
    ["peak + high + must -> allow", { phase: "peak", intensityBucket: "high", decision: "must" }, false],
    [
      "rising + med + should -> allow",
      { phase: "rising", intensityBucket: "med", decision: "should" },
      false,
    ],
    [
      "downshift + low + skip -> allow",
      { phase: "downshift", intensityBucket: "low", decision: "skip" },
      false,
    ],
    ["settled + must -> allow", { phase: "settled", intensityBucket: "low", decision: "must" }, false],
    ["no affect at all + should -> allow", { decision: "should" }, false],
    [
      "undefined affect (no baseline memento) + skip -> allow",
      { phase: undefined, intensityBucket: undefined, decision: "skip" },
      false,
    ],
  ];

  it.each(rows)("%s", (_, args, expected) => {
    expect(shouldFreezeSummaryAtPeak(args)).toBe(expected);
  });
});

describe("extractBreakpointSignalKinds", () => {
  it("pulls every item's kind from context.thread_memento.signals, in order, duplicates kept", () => {
    const memento = validMemento({
      signals: {
        updatedAt: "2025-03-01T12:00:00Z",
        items: [
          validSignalItem({ kind: "pivot" }),
          validSignalItem({ kind: "ack_only" }),
          validSignalItem({ kind: "pivot" }),
        ],
      },
    });
    const packet = { ...validPacketInput(), context: { thread_memento: memento } };
    expect(extractBreakpointSignalKinds(packet)).toEqual<BreakpointSignalKind[]>([
      "pivot",
      "ack_only",
      "pivot",
    ]);
  });

  it.each([
    ["no context", {}],
    ["no memento", { context: {} }],
    ["memento without signals", { context: { thread_memento: { signals: undefined } } }],
    ["signals without items", { context: { thread_memento: { signals: {} } } }],
  ])("returns [] with %s", (_, packet) => {
    expect(extractBreakpointSignalKinds(packet)).toEqual([]);
  });
});

describe("unit tests of breakpoint-engine.md (Test Coverage)", () => {
  it("MUST signal classification: decision_made -> must", () => {
    expect(decideBreakpointAction({ message: "We'll use Postgres", signalKinds: ["decision_made"] })).toBe(
      "must",
    );
  });

  it("SKIP ack detection: ack_only signal + ack message -> skip", () => {
    expect(decideBreakpointAction({ message: "ok thanks", signalKinds: ["ack_only"] })).toBe("skip");
  });

  it("Peak guardrail freeze: peak/high + should -> true, peak/high + must -> false", () => {
    expect(shouldFreezeSummaryAtPeak({ phase: "peak", intensityBucket: "high", decision: "should" })).toBe(
      true,
    );
    expect(shouldFreezeSummaryAtPeak({ phase: "peak", intensityBucket: "high", decision: "must" })).toBe(
      false,
    );
  });

  it("end to end: signals extracted from a packet drive the decision", () => {
    const memento = validMemento({
      signals: { updatedAt: "2025-03-01T12:00:00Z", items: [validSignalItem({ kind: "ack_only" })] },
    });
    const packet = { ...validPacketInput(), message: "cool", context: { thread_memento: memento } };
    const decision = decideBreakpointAction({
      message: packet.message,
      signalKinds: extractBreakpointSignalKinds(packet),
    });
    expect(decision).toBe("skip");
  });
});
