import {
  decideBreakpointAction,
  isAckOnlyMessage,
  shouldFreezeSummaryAtPeak,
  ThreadMementoSignalKind,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACK_TOKENS } from "../src/breakpoint/ack.js";
import {
  type BreakpointSignalKind,
  MUST_SIGNAL_KINDS,
  SHOULD_SIGNAL_KINDS,
} from "../src/breakpoint/signal-kinds.js";

const kindArb = fc.constantFrom<BreakpointSignalKind>(...ThreadMementoSignalKind.options);
const mustKindArb = fc.constantFrom(...MUST_SIGNAL_KINDS);
const nonMustKindArb = fc.constantFrom(
  ...ThreadMementoSignalKind.options.filter((k) => !MUST_SIGNAL_KINDS.has(k)),
);
const optionalBool = fc.option(fc.boolean(), { nil: undefined });
const messageArb = fc.oneof(
  fc.string(),
  fc
    .array(fc.constantFrom(...ACK_TOKENS, "let's", "do", "plan", "!", "?"), { maxLength: 5 })
    .map((t) => t.join(" ")),
);

const argsArb = fc.record({
  message: messageArb,
  signalKinds: fc.array(kindArb, { maxLength: 8 }),
  contextWindowPressure: optionalBool,
  driftRisk: optionalBool,
  summaryChanged: optionalBool,
});

const decisionArb = fc.constantFrom("must" as const, "should" as const, "skip" as const);
const phaseArb = fc.option(
  fc.constantFrom("rising" as const, "peak" as const, "downshift" as const, "settled" as const),
  {
    nil: undefined,
  },
);
const bucketArb = fc.option(fc.constantFrom("low" as const, "med" as const, "high" as const), {
  nil: undefined,
});

describe("breakpoint properties", () => {
  it("a MUST signal anywhere in the list always yields must", () => {
    fc.assert(
      fc.property(argsArb, mustKindArb, fc.nat(8), (args, mustKind, at) => {
        const kinds = [...args.signalKinds];
        kinds.splice(at % (kinds.length + 1), 0, mustKind);
        expect(decideBreakpointAction({ ...args, signalKinds: kinds })).toBe("must");
      }),
    );
  });

  it("pressure and drift never yield must: without summaryChanged or a MUST signal the result is not must", () => {
    fc.assert(
      fc.property(argsArb, fc.array(nonMustKindArb, { maxLength: 8 }), (args, kinds) => {
        const decision = decideBreakpointAction({ ...args, signalKinds: kinds, summaryChanged: false });
        expect(decision).not.toBe("must");
      }),
    );
  });

  it("pressure or drift never lets a turn be skipped", () => {
    fc.assert(
      fc.property(argsArb, fc.boolean(), (args, pressure) => {
        const decision = decideBreakpointAction({
          ...args,
          contextWindowPressure: pressure,
          driftRisk: !pressure,
        });
        expect(decision).not.toBe("skip");
      }),
    );
  });

  it("skip happens only for an ack (signal or message) with no other signal, flag or summary change", () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        if (decideBreakpointAction(args) !== "skip") return;
        expect(
          args.summaryChanged === true || args.contextWindowPressure === true || args.driftRisk === true,
        ).toBe(false);
        expect(args.signalKinds.every((k) => !MUST_SIGNAL_KINDS.has(k) && !SHOULD_SIGNAL_KINDS.has(k))).toBe(
          true,
        );
        expect(args.signalKinds.includes("ack_only") || isAckOnlyMessage(args.message)).toBe(true);
      }),
    );
  });

  it("the decision does not depend on the order of the signal kinds", () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const reversed = [...args.signalKinds].reverse();
        expect(decideBreakpointAction({ ...args, signalKinds: reversed })).toBe(decideBreakpointAction(args));
      }),
    );
  });

  it("freeze implies (peak or high) and not must; and peak/high with non-must always freezes", () => {
    fc.assert(
      fc.property(phaseArb, bucketArb, decisionArb, (phase, intensityBucket, decision) => {
        const freeze = shouldFreezeSummaryAtPeak({ phase, intensityBucket, decision });
        const peakOrHigh = phase === "peak" || intensityBucket === "high";
        if (freeze) {
          expect(peakOrHigh).toBe(true);
          expect(decision).not.toBe("must");
        }
        expect(freeze).toBe(peakOrHigh && decision !== "must");
      }),
    );
  });

  it("a message made only of ack tokens and stripped punctuation is an ack; adding any other word breaks it", () => {
    const tokens = fc.array(fc.constantFrom(...ACK_TOKENS), { minLength: 1, maxLength: 6 });
    const sep = fc.constantFrom(" ", "  ", ", ", "! ", "? ", ". ", "\t");
    fc.assert(
      fc.property(tokens, sep, fc.boolean(), (words, separator, upper) => {
        const text = words.join(separator);
        expect(isAckOnlyMessage(upper ? text.toUpperCase() : text)).toBe(true);
        expect(isAckOnlyMessage(`${text} tomorrow`)).toBe(false);
      }),
    );
  });
});
