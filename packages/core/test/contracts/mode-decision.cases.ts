import { ModeDecision } from "@solserver/core";
import { RigorConfig, RoutingStep } from "../../src/contracts/mode-decision.js";
import { validModeDecision } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const decision = validModeDecision();
const rigor = { level: "high", gates: ["g"] };

export const modeDecisionCases: Record<string, ContractCase> = {
  RoutingStep: {
    schema: RoutingStep,
    valid: [0, 1, 2],
    invalid: [bad("step 3", null, [], 3), bad("string step", null, [], "1")],
  },
  RigorConfig: {
    schema: RigorConfig,
    valid: [rigor, { level: "low", gates: [] }],
    invalid: [
      bad("unknown level", rigor, ["level"], "extreme"),
      bad("gates over 32", rigor, ["gates"], many(33, "g")),
      bad("gate empty", rigor, ["gates", 0], ""),
      unknownKey(rigor),
    ],
  },
  ModeDecision: {
    schema: ModeDecision,
    valid: [decision, { ...decision, step: 0, confidence: 0 }, { ...decision, step: 2, confidence: 1 }],
    invalid: [
      bad("empty modeLabel", decision, ["modeLabel"], ""),
      bad("modeLabel over 64", decision, ["modeLabel"], str(65)),
      bad("domainFlags over 32", decision, ["domainFlags"], many(33, "f")),
      bad("rigor level unknown", decision, ["rigorConfig", "level"], "max"),
      bad("clusterIds item empty", decision, ["clusterIds", 0], ""),
      bad("checkpointNeeded not boolean", decision, ["checkpointNeeded"], "no"),
      bad("confidence > 1", decision, ["confidence"], 1.1),
      bad("confidence < 0", decision, ["confidence"], -0.1),
      bad("reasons over 16", decision, ["reasons"], many(17, "r")),
      bad("empty version", decision, ["version"], ""),
      bad("step 3", decision, ["step"], 3),
      missing(decision, ["step"]),
      unknownKey(decision),
      unknownKey(decision, ["rigorConfig"]),
    ],
  },
};
