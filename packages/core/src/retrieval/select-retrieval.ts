import { compareText } from "../text/index.js";
/** A summary a turn may inject: an explicit memory, or another thread's memento (`thread:<id>`). */
export interface RetrievalCandidate {
  readonly memoryId: string;
  readonly summary: string;
  readonly score: number;
}

/** How much a turn's retrieval may inject. */
export interface RetrievalLimits {
  /** At most this many summaries (flow pack D: the top N). */
  readonly topN: number;
  /** Estimated tokens all injected summaries may take together. */
  readonly maxTokens: number;
  /** Token estimate of a text (default: characters / 4, rounded up). */
  readonly estimateTokens?: ((text: string) => number) | undefined;
}

const charsOver4 = (text: string) => Math.ceil(text.length / 4);

/**
 * The best candidates by score (ties: memory id) that fit the limits; a summary too long for what
 * is left of the budget is skipped, so a shorter one below it can still be injected.
 */
export function selectRetrieval(
  candidates: readonly RetrievalCandidate[],
  limits: RetrievalLimits,
): RetrievalCandidate[] {
  const estimate = limits.estimateTokens ?? charsOver4;
  const ranked = [...candidates].sort((a, b) => b.score - a.score || compareText(a.memoryId, b.memoryId));
  const chosen: RetrievalCandidate[] = [];
  let left = limits.maxTokens;
  for (const candidate of ranked) {
    if (chosen.length >= limits.topN) break;
    const cost = estimate(candidate.summary);
    if (cost > left || chosen.some((c) => c.memoryId === candidate.memoryId)) continue;
    chosen.push(candidate);
    left -= cost;
  }
  return chosen;
}
