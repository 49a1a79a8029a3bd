import { type Clause, hedgedAt, negatedAt } from "./text.js";

/** A phrase pattern that signals a kind, with the confidence it carries on its own. */
export interface Cue {
  readonly re: RegExp;
  readonly weight: number;
  /** The pattern carries its own negation ("doesn't want"), so a negator before it does not cancel it. */
  readonly selfNegated?: boolean;
  /** The cue still counts inside a question ("totally different question: …?"). */
  readonly inQuestion?: boolean;
}

/** How a kind treats hedges: MUST kinds drop a hedged cue, others lower it, risks keep it. */
export type HedgePolicy = "drop" | "lower" | "keep";

export interface CueHit {
  readonly confidence: number;
  readonly clause: Clause;
}

/** The strongest cue hit over the clauses, after question, negation and hedge checks. */
export function bestCueHit(
  clauses: readonly Clause[],
  cues: readonly Cue[],
  hedge: HedgePolicy,
): CueHit | undefined {
  let best: CueHit | undefined;
  for (const clause of clauses) {
    for (const cue of cues) {
      const confidence = cueConfidence(clause, cue, hedge);
      if (confidence > 0 && (best === undefined || confidence > best.confidence)) {
        best = { confidence, clause };
      }
    }
  }
  return best;
}

function cueConfidence(clause: Clause, cue: Cue, hedge: HedgePolicy): number {
  const match = cue.re.exec(clause.text);
  if (match === null) return 0;
  if (clause.deliberative && cue.inQuestion !== true) return 0;
  if (cue.selfNegated !== true && negatedAt(clause.text, match.index)) return 0;
  if (hedge === "keep" || !hedgedAt(clause.text, match.index)) return cue.weight;
  return hedge === "drop" ? 0 : cue.weight * 0.6;
}
