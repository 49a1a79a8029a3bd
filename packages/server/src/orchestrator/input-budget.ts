import {
  type AssembledPrompt,
  type AssemblePromptInput,
  assemblePrompt,
  type CompiledPolicy,
  type ModeDecision,
  type Result,
  SolError,
} from "@solserver/core";
import { estimateTokens } from "../providers/token-estimate.js";
import { sha256Hex } from "../store/canonical-json.js";

/** Estimated input tokens of an assembled prompt (characters / 4 per message). */
export function promptTokens(prompt: AssembledPrompt): number {
  return prompt.messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
}

/**
 * Assembles the prompt within `budgets.maxInputTokens`: the oldest window messages are dropped first;
 * when the prompt is still too large without any window (law, policy and the message itself), the
 * turn fails with `budget_exceeded` (429) before any model call.
 */
export function assembleWithinBudget(input: AssemblePromptInput): {
  readonly prompt: AssembledPrompt;
  readonly trimmedForBudget: number;
} {
  // node:crypto's SHA-256 gives the same prompt hash as core's portable one at a fraction of the CPU.
  const assemble = (windowSize?: number) =>
    assemblePrompt({ ...input, sha256Hex, ...(windowSize === undefined ? {} : { windowSize }) });
  const prompt = assemble();
  const limit = input.budgets?.maxInputTokens;
  if (limit === undefined || promptTokens(prompt) <= limit) return { prompt, trimmedForBudget: 0 };
  let smallest = prompt;
  for (let size = prompt.windowCount - 1; size >= 0; size -= 1) {
    smallest = assemble(size);
    if (promptTokens(smallest) <= limit) {
      return { prompt: smallest, trimmedForBudget: prompt.windowCount - smallest.windowCount };
    }
  }
  throw budgetExceeded(limit, promptTokens(smallest));
}

/**
 * Refuses the turn (`budget_exceeded`) when no routing outcome's prompt fits `budgets.maxInputTokens`
 * even without any window or checkpoint capsule: run before the selector call, so a turn that cannot
 * fit makes no model call at all. A mode whose Driver Blocks do not compile cannot be sized, so then
 * the turn goes on (and fails on them later if routed there).
 */
export function refuseUnlessAnyRoutingFits(args: {
  readonly candidates: readonly ModeDecision[];
  readonly fixed: Omit<AssemblePromptInput, "modeDecision" | "policy" | "window" | "checkpointCapsule">;
  readonly policyFor: (modeLabel: string) => Result<CompiledPolicy, unknown>;
}): void {
  const limit = args.fixed.budgets?.maxInputTokens;
  if (limit === undefined) return;
  let smallest = Number.POSITIVE_INFINITY;
  for (const modeDecision of args.candidates) {
    const policy = args.policyFor(modeDecision.modeLabel);
    if (!policy.ok) return;
    const tokens = promptTokens(
      assemblePrompt({ ...args.fixed, modeDecision, policy: policy.value, window: [], sha256Hex }),
    );
    if (tokens <= limit) return;
    smallest = Math.min(smallest, tokens);
  }
  if (Number.isFinite(smallest)) throw budgetExceeded(limit, smallest);
}

// A retry of the same request would fail the same way, so the error says it is not retryable.
function budgetExceeded(limit: number, estimated: number): SolError {
  return new SolError(
    "budget_exceeded",
    `The prompt needs about ${estimated} input tokens even without earlier messages, more than budgets.maxInputTokens (${limit}).`,
    { details: { budget: "maxInputTokens", limit, estimated, retryable: false } },
  );
}
