import { canonicalPhrase } from "./text.js";

/** One configured term (keyword, phrase or call word) owned by a mode. */
export interface Term {
  readonly text: string;
  readonly modeIndex: number;
  readonly kind: "keyword" | "phrase" | "callWord";
}

/** A term found in a message, with its token position. */
export interface TermHit extends Term {
  readonly position: number;
}

/** Finds configured terms in a token sequence on word boundaries, indexed by first token for speed. */
export interface TermIndex {
  readonly size: number;
  find(tokens: readonly string[]): TermHit[];
}

interface IndexedTerm extends Term {
  readonly tokens: readonly string[];
}

/** Builds a term index; terms are compared in canonical form (lowercase, no accents, no punctuation). */
export function buildTermIndex(terms: readonly Term[]): TermIndex {
  const byFirst = new Map<string, IndexedTerm[]>();
  let size = 0;
  for (const term of terms) {
    const tokens = canonicalPhrase(term.text).split(" ").filter(Boolean);
    const first = tokens[0];
    if (first === undefined) continue;
    const list = byFirst.get(first) ?? [];
    list.push({ ...term, tokens });
    byFirst.set(first, list);
    size++;
  }
  return {
    size,
    find(tokens) {
      const hits: TermHit[] = [];
      if (size === 0) return hits;
      for (let position = 0; position < tokens.length; position++) {
        const candidates = byFirst.get(tokens[position] ?? "");
        if (candidates === undefined) continue;
        for (const candidate of candidates) {
          if (matchesAt(tokens, position, candidate.tokens)) {
            hits.push({
              text: candidate.text,
              modeIndex: candidate.modeIndex,
              kind: candidate.kind,
              position,
            });
          }
        }
      }
      return hits;
    },
  };
}

function matchesAt(tokens: readonly string[], start: number, term: readonly string[]): boolean {
  if (start + term.length > tokens.length) return false;
  for (let i = 1; i < term.length; i++) if (tokens[start + i] !== term[i]) return false;
  return true;
}
