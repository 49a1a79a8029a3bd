import type { LlmRequest, ModeDecision } from "@solserver/core";

const BEST_GUESS = /"?best_?guess"?\s*[:=]\s*"?([A-Za-z0-9_.-]{1,64})"?/i;
const FALLBACK_MODE = "default";

/** The offline selector's ModeDecision: the prompt's `bestGuess` when it is an allowed mode, else the first mode. */
export function offlineModeDecision(request: LlmRequest): ModeDecision {
  const modes = (request.hints?.selectorModes ?? []).filter((m) => m.length > 0 && m.length <= 64);
  const guess = bestGuess(request);
  const fromGuess = guess !== undefined && (modes.length === 0 || modes.includes(guess));
  const modeLabel = fromGuess ? guess : (modes[0] ?? request.hints?.modeLabel ?? FALLBACK_MODE);
  return {
    modeLabel,
    domainFlags: [],
    rigorConfig: { level: "normal", gates: [] },
    clusterIds: [],
    checkpointNeeded: false,
    confidence: 0.5,
    reasons: [
      fromGuess ? "offline selector: kept the router's best guess" : "offline selector: first allowed mode",
    ],
    version: "offline-selector-v1",
    step: 2,
  };
}

function bestGuess(request: LlmRequest): string | undefined {
  // The latest message carrying a best guess wins: it is the one the selector prompt was built for.
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const match = BEST_GUESS.exec(request.messages[i]?.content ?? "");
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}
