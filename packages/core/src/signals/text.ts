import { clipText } from "../text/index.js";

/** One sentence or clause of a message, lowercased, with its question form worked out. */
export interface Clause {
  /** The clause as written (trimmed), kept for summaries. */
  readonly raw: string;
  /** Lowercased, curly quotes made straight, whitespace collapsed. */
  readonly text: string;
  /** A question that weighs or asks something ("should we…?", "is it…?"), not a request. */
  readonly deliberative: boolean;
  /** A request in question or imperative form ("can you…", "could we…", "please…", "let's…"). */
  readonly request: boolean;
}

const SENTENCE_END = /(?<=[.!?;])\s+|\n+/;
// "…, can you…" starts a request of its own: "I'm switching banks, can you list what to update?"
const BUT_SPLIT = /,?\s+but\s+|,\s+(?:so|though)\s+|,\s+(?=(?:can|could|would|will) you\b)/;
const REQUEST_START =
  /^(?:(?:now|and|so|ok|okay|also|then|hey),?\s+){0,3}(?:(?:can|could|would|will)\s+(?:you|we|u)\b|please\b|let'?s\b|let us\b)/;
const INTERROGATIVE_START =
  /^(?:(?:ok|okay|so|and|but|hmm),?\s+){0,3}(?:should|shall|do|does|did|is|are|was|were|am|what|why|how|when|where|which|who|whose|has|have|had|any|would it|will it|could it)\b/;

/** Lowercases and straightens quotes so cue patterns can be written once. */
export function normalizeText(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

// Bounds on the work per message: a cue lives in one short clause, and a pasted document must not
// cost seconds (cue patterns backtrack over long clauses). A long message keeps its start and end.
const MAX_CLAUSE_CHARS = 400;
const MAX_CLAUSES = 80;

/** Splits a message into clauses: sentences, then "…, but …" halves, each with its question form. */
export function splitClauses(message: string): Clause[] {
  const clauses = allClauses(message);
  if (clauses.length <= MAX_CLAUSES) return clauses;
  return [...clauses.slice(0, MAX_CLAUSES / 2), ...clauses.slice(-MAX_CLAUSES / 2)];
}

function allClauses(message: string): Clause[] {
  const clauses: Clause[] = [];
  for (const sentence of message.split(SENTENCE_END)) {
    const parts = sentence.split(BUT_SPLIT);
    parts.forEach((part, i) => {
      const whole = part.trim();
      if (whole === "") return;
      // A question mark closes the sentence, so it belongs to the last "but" half only.
      const asks = i === parts.length - 1 && whole.endsWith("?");
      const raw = clipText(whole, MAX_CLAUSE_CHARS);
      const text = normalizeText(raw);
      const request = REQUEST_START.test(text);
      const deliberative = !request && (asks || INTERROGATIVE_START.test(text));
      clauses.push({ raw, text, deliberative, request });
    });
  }
  return clauses;
}

/** Words of a normalized text (letters, digits and apostrophes). */
export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}']+/gu) ?? [];
}

const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "nothing",
  "none",
  "nobody",
  "without",
  "hardly",
  "barely",
  "yet",
  "almost",
  "nearly",
]);

/**
 * True when one of the three words before `index` negates what follows ("haven't decided", "no
 * concerns"). A comma ends the reach: in "we're not moving, we decided to stay" the decision stands.
 */
export function negatedAt(text: string, index: number): boolean {
  const head = text.slice(0, index);
  const before = words(head.slice(head.search(/[,;:][^,;:]*$/) + 1)).slice(-3);
  return before.some((word) => NEGATORS.has(word) || word.endsWith("n't"));
}

const HEDGE =
  /\b(?:maybe|wish|might|perhaps|possibly|probably|if|whether|once|before|unless|considering|thinking (?:about|of)|leaning|not sure|wondering|depends|would|could)\b/;

/** True when the clause hedges or supposes before `index` ("maybe we'll…", "if we decided…"). */
export function hedgedAt(text: string, index: number): boolean {
  // "Could you…" opening a request is politeness; a hedge after it ("…check if…") still counts.
  const lead = REQUEST_START.exec(text)?.[0].length ?? 0;
  return HEDGE.test(text.slice(Math.min(lead, index), index));
}
