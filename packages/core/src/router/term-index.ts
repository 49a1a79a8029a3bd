import { canonicalPhrase, normalizeText } from "./text.js";

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
  /**
   * Terms at token positions. `normalized` is the message as `normalizeText` gives it: a term with a
   * symbol attached to a word ("c++", "c#") also needs that surface form there, and never matches
   * without it.
   */
  find(tokens: readonly string[], normalized?: string): TermHit[];
}

interface IndexedTerm extends Term {
  readonly tokens: readonly string[];
  /** Set when the term has symbols that tokens drop; the message must contain this form too. */
  readonly surface: RegExp | null;
}

// Symbols that make a different word when attached to one ("c++", "c#", "f#", "a+"). Tokens keep
// only letters and digits, so "c++" would otherwise match any "c" ("vitamin c", "plan c").
// Ordinary punctuation (". , ! ? - _ ' quotes brackets") stays insignificant: "node.js" matches
// "node js" and "hello!" matches "hello".
const SIGNIFICANT_SYMBOL = /[#+@&*$%=<>|~^]/u;
const EDGE_RUNS = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const ALNUM = /[\p{L}\p{N}]/u;

/** The surface-form pattern of a term with significant symbols at a word's edge, else null. */
function surfaceOf(text: string): RegExp | null {
  const words = normalizeText(text).trim().split(/\s+/u);
  const significant = words.some((word) =>
    (word.match(EDGE_RUNS) ?? []).some((run) => SIGNIFICANT_SYMBOL.test(run)),
  );
  if (!significant) return null;
  const body = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+");
  const first = words[0] ?? "";
  const last = words[words.length - 1] ?? "";
  const before = ALNUM.test(first.charAt(0)) ? "(?<![\\p{L}\\p{N}])" : "";
  const after = ALNUM.test(last.charAt(last.length - 1)) ? "(?![\\p{L}\\p{N}])" : "";
  return new RegExp(`${before}${body}${after}`, "u");
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
    list.push({ ...term, tokens, surface: surfaceOf(term.text) });
    byFirst.set(first, list);
    size++;
  }
  return {
    size,
    find(tokens, normalized) {
      const hits: TermHit[] = [];
      if (size === 0) return hits;
      // Each surface pattern is tested at most once per message, however often its first word occurs.
      const surfaceSeen = new Map<RegExp, boolean>();
      const hasSurface = (surface: RegExp): boolean => {
        let seen = surfaceSeen.get(surface);
        if (seen === undefined) {
          seen = normalized !== undefined && surface.test(normalized);
          surfaceSeen.set(surface, seen);
        }
        return seen;
      };
      for (let position = 0; position < tokens.length; position++) {
        const candidates = byFirst.get(tokens[position] ?? "");
        if (candidates === undefined) continue;
        for (const candidate of candidates) {
          if (
            matchesAt(tokens, position, candidate.tokens) &&
            (candidate.surface === null || hasSurface(candidate.surface))
          ) {
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
