import type { Issue } from "../../result.js";
import { AtlasActionPattern } from "../atlas/schema.js";
import { KeywordMatchMode } from "../keywords/types.js";
import { compileSafeRegex } from "../regex/index.js";
import { RiskTier } from "../risk.js";
import type { CheckpointEventType } from "../types.js";
import type { TriggerCondition } from "./types.js";

const ALL_BUT_SESSION: readonly CheckpointEventType[] = [
  "input",
  "action_pre",
  "action_post",
  "error",
  "explicit_request",
];

/** Events a condition can react to when a type does not list its own. */
export function defaultEventsFor(condition: TriggerCondition): readonly CheckpointEventType[] {
  switch (condition.type) {
    case "keyword":
    case "regex":
      return ["input"];
    case "action":
    case "risk":
      return ["action_pre"];
    case "count":
      return ["action_pre", "action_post"];
    default:
      return ALL_BUT_SESSION;
  }
}

/** Validates a trigger condition; issues are prefixed with `path`. */
export function validateCondition(condition: TriggerCondition, path: (string | number)[]): Issue[] {
  const issues: Issue[] = [];
  const bad = (message: string) =>
    issues.push({ code: "invalid_condition", message: `${path.join(".")}: ${message}`, path });
  switch (condition.type) {
    case "always":
      break;
    case "keyword":
      if (!Array.isArray(condition.keywords) || condition.keywords.length === 0) bad("needs keywords");
      else if (condition.keywords.some((k) => typeof k !== "string" || k.trim() === "" || k.length > 1000)) {
        bad("keywords must be non-empty strings up to 1000 characters");
      }
      if (!KeywordMatchMode.safeParse(condition.matchMode).success) bad("unknown matchMode");
      if (condition.threshold !== undefined && !(condition.threshold >= 0 && condition.threshold <= 1)) {
        bad("threshold must be within 0..1");
      }
      if (condition.matchMode === "regex" && Array.isArray(condition.keywords)) {
        for (const pattern of condition.keywords) {
          const compiled = compileSafeRegex(String(pattern));
          if (!compiled.ok) bad(compiled.issues.map((i) => i.message).join("; "));
        }
      }
      break;
    case "regex": {
      const compiled = compileSafeRegex(String(condition.pattern));
      if (!compiled.ok) bad(compiled.issues.map((i) => i.message).join("; "));
      break;
    }
    case "action":
      if (!Array.isArray(condition.actions) || condition.actions.length === 0) bad("needs actions");
      else if (condition.actions.some((a) => !AtlasActionPattern.safeParse(a).success))
        bad("invalid action pattern");
      break;
    case "risk":
      if (!RiskTier.safeParse(condition.minTier).success) bad("unknown minTier");
      break;
    case "interval":
      if (!(typeof condition.seconds === "number" && condition.seconds > 0 && condition.seconds <= 604_800)) {
        bad("seconds must be within (0, 604800]");
      }
      break;
    case "count":
      if (!(Number.isInteger(condition.actions) && condition.actions >= 1))
        bad("actions must be an integer >= 1");
      break;
    case "custom":
      if (typeof condition.evaluator !== "function") bad("evaluator must be a function");
      break;
    default:
      bad("unknown condition type");
  }
  return issues;
}
