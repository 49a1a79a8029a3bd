// "What's decided?" asked in many words; anchored on a decide/agree verb or "decisions" so that a
// question that merely mentions deciding ("how do I decide?") is not taken for a recap request.
const RECALL_PATTERNS: readonly RegExp[] = [
  /\bwhat(?:'s|’s| is| has| have| was| were)?\s+(?:been\s+|we\s+|i\s+)?(?:decided|agreed)\b/i,
  /\bwhat did (?:we|i) (?:decide|agree|settle)\b/i,
  /\b(?:list|recap|summari[sz]e|review|remind me (?:of|about)|show me)\b[^.?!]{0,40}\bdecisions?\b/i,
  /\b(?:our|the|any|which)\s+decisions?\s+(?:so far|made|we made|have we made)\b/i,
  /\bdecisions? so far\b/i,
  /\bwhere did we (?:land|end up)\b/i,
];

/** True when the user asks what the thread has decided ("What's decided?", "recap our decisions"). */
export function isDecisionsQuestion(message: string): boolean {
  return RECALL_PATTERNS.some((pattern) => pattern.test(message));
}

const SECTION = /^([A-Z][A-Za-z ]{0,30}):\s*$/;

/** The items of a checkpoint capsule's `Decisions:` section (see buildCheckpointCapsule). */
export function decisionsFromCapsule(capsule: string): string[] {
  const out: string[] = [];
  let inDecisions = false;
  for (const line of capsule.split("\n")) {
    const header = SECTION.exec(line.trim());
    if (header) {
      inDecisions = header[1] === "Decisions";
      continue;
    }
    if (!inDecisions || !line.startsWith("- ")) continue;
    const item = line.slice(2).trim();
    if (item === "none" || /^\(\+\d+ more\)$/.test(item)) continue;
    out.push(item);
  }
  return out;
}

/** What the thread has decided: the memento's decisions, then the checkpoint's that it lacks. */
export interface DecisionsRecall {
  readonly decisions: readonly string[];
  readonly fromMemento: number;
  readonly fromCheckpoint: number;
}

/** Merges the memento's decisions with the latest checkpoint's, case-insensitively deduplicated. */
export function recallDecisions(
  mementoDecisions: readonly string[],
  checkpointCapsule: string | null,
): DecisionsRecall {
  const seen = new Set<string>();
  const decisions: string[] = [];
  const add = (item: string) => {
    const key = item.trim().toLowerCase();
    if (key === "" || seen.has(key)) return false;
    seen.add(key);
    decisions.push(item.trim());
    return true;
  };
  const fromMemento = mementoDecisions.filter(add).length;
  const fromCheckpoint =
    checkpointCapsule === null ? 0 : decisionsFromCapsule(checkpointCapsule).filter(add).length;
  return { decisions, fromMemento, fromCheckpoint };
}

/** The prompt block that answers "What's decided?" from the thread's own records. */
export function renderDecisionsContext(recall: DecisionsRecall): string {
  if (recall.decisions.length === 0) {
    return "The user asks what is decided. The thread records no decisions yet: say so plainly, and do not invent any.";
  }
  return [
    "The user asks what is decided. Answer from these recorded decisions (thread memento and latest checkpoint) and add none:",
    ...recall.decisions.map((d) => `- ${d}`),
  ].join("\n");
}
