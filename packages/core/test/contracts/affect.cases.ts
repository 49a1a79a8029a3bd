import { AffectPoint } from "@solserver/core";
import {
  AffectPhase,
  AffectRollup,
  IntensityBucket,
  ThreadMementoAffect,
} from "../../src/contracts/affect.js";
import { validAffectPoint } from "../fixtures/valid-memento.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const point = validAffectPoint();
const rollup = { phase: "peak", intensityBucket: "high", updatedAt: "2025-03-01T12:00:00.000Z" };
const affect = { points: [point], rollup };

export const affectCases: Record<string, ContractCase> = {
  AffectPhase: {
    schema: AffectPhase,
    valid: ["rising", "peak", "downshift", "settled"],
    invalid: [bad("unknown phase", null, [], "falling")],
  },
  IntensityBucket: {
    schema: IntensityBucket,
    valid: ["low", "med", "high"],
    invalid: [bad("unknown bucket", null, [], "extreme")],
  },
  AffectPoint: {
    schema: AffectPoint,
    valid: [
      point,
      { ...point, intensity: 0, source: "sentinel" },
      { ...point, intensity: 1, source: "device_hint" },
    ],
    invalid: [
      missing(point, ["endMessageId"]),
      bad("empty endMessageId", point, ["endMessageId"], ""),
      bad("empty label", point, ["label"], ""),
      bad("label over 64", point, ["label"], str(65)),
      bad("intensity > 1", point, ["intensity"], 1.01),
      bad("intensity < 0", point, ["intensity"], -0.01),
      bad("intensity not a number", point, ["intensity"], "0.5"),
      bad("unknown confidence", point, ["confidence"], "sure"),
      bad("unknown source", point, ["source"], "client"),
      unknownKey(point),
    ],
  },
  AffectRollup: {
    schema: AffectRollup,
    valid: [rollup, { phase: "settled", intensityBucket: "low", updatedAt: "2025-03-01T12:00:00-05:00" }],
    invalid: [
      bad("unknown phase", rollup, ["phase"], "falling"),
      bad("unknown bucket", rollup, ["intensityBucket"], "extreme"),
      bad("updatedAt not a datetime", rollup, ["updatedAt"], "2025-03-01"),
      missing(rollup, ["updatedAt"]),
      unknownKey(rollup),
    ],
  },
  ThreadMementoAffect: {
    schema: ThreadMementoAffect,
    valid: [affect, { points: [], rollup }, { points: many(5, point), rollup }],
    invalid: [
      bad("points over 5", affect, ["points"], many(6, point)),
      bad("point intensity > 1", affect, ["points", 0, "intensity"], 2),
      bad("rollup phase unknown", affect, ["rollup", "phase"], "falling"),
      missing(affect, ["rollup"]),
      unknownKey(affect),
      unknownKey(affect, ["rollup"]),
    ],
  },
};
