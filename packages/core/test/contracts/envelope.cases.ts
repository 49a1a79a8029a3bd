import {
  EnvelopeActionNeeded,
  EnvelopeAffectSignal,
  EnvelopeShape,
  EnvelopeSignal,
  ModelOutputEnvelope,
} from "@solserver/core";
import { validEnvelope } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const envelope = validEnvelope();
const meta = envelope.meta!;
const shape = meta.shape!;
const affect = meta.affect_signal!;
const signal = meta.signals![0]!;
const action = meta.action_needed![0]!;

export const envelopeCases: Record<string, ContractCase> = {
  EnvelopeShape: {
    schema: EnvelopeShape,
    valid: [shape],
    invalid: [
      bad("arc over 200", shape, ["arc"], str(201)),
      bad("active over 50", shape, ["active"], many(51, "a")),
      bad("parked item empty", shape, ["parked", 0], ""),
      bad("decisions item over 200", shape, ["decisions", 0], str(201)),
      missing(shape, ["next"]),
      unknownKey(shape),
    ],
  },
  EnvelopeAffectSignal: {
    schema: EnvelopeAffectSignal,
    // Out-of-range intensities and unknown labels are accepted here and normalised later.
    valid: [affect, { label: "joy", intensity: 7, confidence: "high" }],
    invalid: [
      bad("empty label", affect, ["label"], ""),
      bad("label over 64", affect, ["label"], str(65)),
      bad("intensity not a number", affect, ["intensity"], "high"),
      bad("numeric confidence > 1", affect, ["confidence"], 1.5),
      bad("unknown confidence bucket", affect, ["confidence"], "certain"),
      unknownKey(affect),
    ],
  },
  EnvelopeSignal: {
    schema: EnvelopeSignal,
    valid: [signal, { kind: "ack_only", confidence: 0.2 }],
    invalid: [
      bad("unknown kind", signal, ["kind"], "celebration"),
      bad("confidence < 0", signal, ["confidence"], -0.5),
      bad("summary over 180", signal, ["summary"], str(181)),
      unknownKey(signal),
    ],
  },
  EnvelopeActionNeeded: {
    schema: EnvelopeActionNeeded,
    valid: [action],
    invalid: [
      bad("action_kind over 64", action, ["action_kind"], str(65)),
      bad("empty action_label", action, ["action_label"], ""),
      bad("bullets over 3", action, ["action_summary_bullets"], many(4, "b")),
      bad("no bullets", action, ["action_summary_bullets"], []),
      bad("action_target over 80", action, ["action_target"], str(81)),
      bad("action_data_used over 200", action, ["action_data_used"], str(201)),
      bad("empty action_why", action, ["action_why"], ""),
      bad("payload not a record", action, ["action_payload"], 3),
      unknownKey(action),
    ],
  },
  ModelOutputEnvelope: {
    schema: ModelOutputEnvelope,
    valid: [envelope, { assistant_text: "" }, { assistant_text: "hi", meta: {} }],
    invalid: [
      missing(envelope, ["assistant_text"]),
      bad("assistant_text not a string", envelope, ["assistant_text"], 5),
      bad("shape arc empty", envelope, ["meta", "shape", "arc"], ""),
      bad("affect intensity not a number", envelope, ["meta", "affect_signal", "intensity"], null),
      bad("signals over 16", envelope, ["meta", "signals"], many(17, signal)),
      bad("action_needed over 5", envelope, ["meta", "action_needed"], many(6, action)),
      unknownKey(envelope),
      unknownKey(envelope, ["meta"]),
    ],
  },
};
