import { z } from "zod";
import type { GoalTagV1 } from "./goal-tag.js";
import type { IntentLabel } from "./intent.js";
import type { Novelty } from "./thought.js";

/** Which part of the system produced a thought. */
export const ThoughtEmitter = z.enum(["drive-tick", "llm", "api", "system"]);
export type ThoughtEmitter = z.infer<typeof ThoughtEmitter>;

export interface ConvertEligibleInput {
  readonly emittedBy: ThoughtEmitter;
  readonly extractedGoal?: GoalTagV1 | null;
  readonly extractedIntent?: IntentLabel | null;
  readonly novelty?: Novelty;
}

/**
 * The convertEligible rule: true only for a drive-tick thought, or an LLM thought that produced
 * an `extractedGoal` or a non-`none` intent. Low-novelty (dedup fallback) thoughts are never
 * eligible. API and system thoughts are not: the intent rule must not become a way around the
 * production ban on injecting `convertEligible`.
 */
export function deriveConvertEligible(input: ConvertEligibleInput): boolean {
  if (input.novelty === "low") return false;
  if (input.emittedBy === "drive-tick") return true;
  if (input.emittedBy !== "llm") return false;
  const intent = input.extractedIntent;
  return (
    (input.extractedGoal !== undefined && input.extractedGoal !== null) ||
    (intent !== undefined && intent !== null && intent !== "none")
  );
}

/**
 * The dev-only request-body rule: `convertEligible` from a `POST /v1/thoughts` body is honoured
 * only outside production and only when it is a boolean; otherwise undefined (ignored).
 */
export function acceptConvertEligibleFromBody(
  body: unknown,
  options: { readonly isProduction: boolean },
): boolean | undefined {
  if (options.isProduction || typeof body !== "object" || body === null) return undefined;
  const value = (body as { convertEligible?: unknown }).convertEligible;
  return typeof value === "boolean" ? value : undefined;
}
