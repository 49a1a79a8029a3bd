import {
  buildInternalThoughtPrompt,
  type DriveWorld,
  type LlmProvider,
  type LlmResponse,
  situationBands,
} from "@solserver/core";

/** Output budget of one thought: one or two short sentences, a tag and an INTENT line. */
export const THOUGHT_MAX_OUTPUT_TOKENS = 160;
/** Some variety between calls on a real model; the offline provider ignores it. */
export const THOUGHT_TEMPERATURE = 0.7;

/**
 * `generateInternalThought`: one model call with the core prompt for `world`. The provider's
 * errors (SolError `provider_*`, 502) pass through; the caller sanitizes the text.
 */
export function generateInternalThought(provider: LlmProvider, world: DriveWorld): Promise<LlmResponse> {
  const prompt = buildInternalThoughtPrompt(world);
  return provider.complete({
    purpose: "thought",
    messages: [
      { role: "system", content: prompt.system },
      { role: "user", content: prompt.user },
    ],
    json: false,
    maxOutputTokens: THOUGHT_MAX_OUTPUT_TOKENS,
    temperature: THOUGHT_TEMPERATURE,
    hints: { userMessage: prompt.user, situation: situationBands(world) },
  });
}
