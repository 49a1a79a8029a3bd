import { hasEndOfReplyChecks } from "@solserver/core";
import type { GenerationInput } from "./generation.js";

// A sink that cannot retract (the OpenAI facades) must never be shown text a later step withdraws.
// These helpers keep that promise: stream only when no end-of-reply check can reject what was shown,
// and let a regeneration continue the shown text instead of replacing it.

/**
 * True when the turn's reply may stream to its sink. A sink that can retract always may; one that
 * cannot is held to the end when a strict check needs the whole reply (core hasEndOfReplyChecks), or
 * the reply is the client's document (structured output) or is cut at the client's stop sequences.
 */
export function mayStream(input: GenerationInput): boolean {
  const show = input.show;
  if (show === undefined || input.provider.stream === undefined) return false;
  const facade = input.plan.facade;
  if (facade.passthrough !== undefined) return false;
  if (show.canRetract) return true;
  if (facade.structuredOutput !== undefined || (facade.stopSequences?.length ?? 0) > 0) return false;
  return !hasEndOfReplyChecks(input.policy, input.modeDecision);
}

/**
 * The reply of a call that continues `shown`: the model was asked for the rest only, but one that
 * starts over with the shown text has it counted once.
 */
export function joinContinuation(shown: string, text: string): string {
  if (shown === "" || text.startsWith(shown)) return text;
  return shown + text;
}

/** The patch directive of a regeneration that must continue text the user has already been shown. */
export function continuationDirective(shown: string): string {
  return `The user has already been shown the start of your reply, which cannot be withdrawn: ${JSON.stringify(shown)}. Write only the rest of the reply as assistant_text, continuing that text exactly where it stops (do not repeat it), and follow the other directives.`;
}
