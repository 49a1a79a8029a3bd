import { type AssembledPrompt, type AssemblePromptInput, assemblePrompt, SolError } from "@solserver/core";
import { estimateTokens } from "../providers/token-estimate.js";
import { sha256Hex } from "../store/canonical-json.js";

/** Estimated input tokens of an assembled prompt (characters / 4 per message). */
export function promptTokens(prompt: AssembledPrompt): number {
  return prompt.messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
}

/**
 * Assembles the prompt within `budgets.maxInputTokens`: the oldest window messages are dropped first;
 * when the prompt is still too large without any window (law, policy and the message itself), the
 * turn fails with `budget_exceeded` (429) before any model call. A retry of the same request would
 * fail the same way, so the error says it is not retryable.
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
  const estimated = promptTokens(smallest);
  throw new SolError(
    "budget_exceeded",
    `The prompt needs about ${estimated} input tokens even without earlier messages, more than budgets.maxInputTokens (${limit}).`,
    { details: { budget: "maxInputTokens", limit, estimated, retryable: false } },
  );
}
