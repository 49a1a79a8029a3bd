import { sql } from "kysely";
import type { StoreContext } from "../sql/context.js";

/** A term in more than this share of the indexed memories is left out of the query... */
export const COMMON_TERM_SHARE = 0.1;
/** ...unless the query would keep fewer terms than this (the rarest are kept). */
const MIN_TERMS = 2;
/** Below this many memories every term is kept: the engine's work is small anyway. */
const MIN_MEMORIES = 2000;

/**
 * The porter stems a word may have in the FTS5 index: the word and its prefixes down to 3 letters
 * (or 4 fewer), with a final y as i. Not a stemmer: the longest one found in the index is taken as
 * the word's stem, which over-counts only words whose real stem is absent (they match nothing).
 */
export function stemCandidates(term: string): string[] {
  const out = new Set<string>();
  for (let end = term.length; end >= Math.max(3, term.length - 4); end--) {
    const prefix = term.slice(0, end);
    out.add(prefix);
    if (prefix.endsWith("y")) out.add(`${prefix.slice(0, -1)}i`);
  }
  return [...out];
}

/**
 * Drops the query terms that most memories contain (fts5vocab document counts): an OR over them
 * makes FTS5 score nearly every row, and their BM25 weight is small anyway. SQLite only.
 */
export async function pruneCommonTerms(ctx: StoreContext, terms: readonly string[]): Promise<string[]> {
  if (terms.length <= MIN_TERMS) return [...terms];
  const candidates = terms.map(stemCandidates);
  const all = [...new Set(candidates.flat())];
  const [total, vocab] = await Promise.all([
    sql<{ n: number | null }>`select max(seq) as n from memories`.execute(ctx.db),
    sql<{
      term: string;
      doc: number;
    }>`select term, doc from memories_vocab where term in (${sql.join(all)})`.execute(ctx.db),
  ]);
  const memories = Number(total.rows[0]?.n ?? 0);
  if (memories < MIN_MEMORIES) return [...terms];
  const docs = new Map(vocab.rows.map((r) => [r.term, Number(r.doc)]));
  // The longest candidate in the index is the word's stem; none found: the word matches nothing.
  const df = candidates.map((list) => docs.get(list.find((c) => docs.has(c)) ?? "") ?? 0);
  const limit = COMMON_TERM_SHARE * memories;
  const rarest = terms.map((_, i) => i).sort((a, b) => (df[a] ?? 0) - (df[b] ?? 0));
  const keep = new Set(rarest.filter((i) => (df[i] ?? 0) <= limit));
  for (const i of rarest.slice(0, MIN_TERMS)) keep.add(i);
  return terms.filter((_, i) => keep.has(i));
}
