import { createLruCache } from "../cache/lru-cache.js";
import { type Bm25Counts, bm25Counts, bm25ScoresOfCounts } from "./bm25.js";
import { extractQueryTerms } from "./query-terms.js";
import { SEARCH_CONTEXT_WEIGHT } from "./ranking.js";

/** What ranking reads of a memento: its thread and words (the ports' MementoArc adds its time). */
export interface RankableArc {
  readonly threadId: string;
  readonly arc: string;
  readonly active: readonly string[];
  readonly parked: readonly string[];
  readonly decisions: readonly string[];
  readonly next: readonly string[];
}

/** Another thread's arc as a retrieval candidate: its summary and its BM25 score for the message. */
export interface RankedArc {
  readonly threadId: string;
  readonly summary: string;
  readonly score: number;
}

/** A memento of another thread as one retrieval summary (its arc and decisions). */
export function mementoSummary(m: RankableArc): string {
  const decided = m.decisions.length === 0 ? "" : ` Decided: ${m.decisions.slice(0, 5).join("; ")}.`;
  return `Thread ${m.threadId}: ${m.arc}.${decided}`;
}

/** Ranks other threads' arcs against a message; keeps their term counts between calls. */
export interface ArcRanker {
  /**
   * BM25 of each arc for the message's terms (the arc and its decisions as text, the rest of the
   * memento as context), over `arcs` as the corpus. The arcs that score, in their given order; with
   * `keepUnscored`, every arc (an embedding ranker may still find a paraphrase among them).
   */
  rank(tenantId: string, arcs: readonly RankableArc[], message: string, keepUnscored?: boolean): RankedArc[];
}

interface CountedArc {
  readonly arc: RankableArc;
  readonly counts: Bm25Counts;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** Equal text and context: the counts made from `cached` hold for `arc`. */
function sameWords(cached: RankableArc, arc: RankableArc): boolean {
  return (
    cached.arc === arc.arc &&
    sameList(cached.decisions, arc.decisions) &&
    sameList(cached.active, arc.active) &&
    sameList(cached.next, arc.next) &&
    sameList(cached.parked, arc.parked)
  );
}

// Every turn ranks up to 50 other threads' arcs, and an arc changes only when its thread has a turn:
// their term counts are kept per thread with the arc they were counted from, and reused only while its
// words are equal (compared field by field, without building the texts), so a call tokenizes only the
// arcs that changed. A short key (tenant and thread) avoids hashing the text itself; equality decides,
// so a stale entry is never used. Counting 50 arcs cost 130-2500 µs (60-1200 characters each).
/** An {@link ArcRanker} with its own cache of term counts (bounded by entries and characters). */
export function createArcRanker(): ArcRanker {
  const cache = createLruCache<CountedArc>({
    capacity: 4096,
    charsBudget: 8 * 1024 * 1024,
    sizeOf: ({ arc }) => arcChars(arc),
  });
  const countsOf = (tenantId: string, arc: RankableArc): Bm25Counts => {
    const key = `${tenantId}\u0000${arc.threadId}`;
    const cached = cache.get(key);
    if (cached !== undefined && sameWords(cached.arc, arc)) return cached.counts;
    const counts = bm25Counts({
      text: `${arc.arc} ${arc.decisions.join(" ")}`,
      context: [...arc.active, ...arc.next, ...arc.parked].join(" "),
    });
    cache.set(key, { arc, counts });
    return counts;
  };
  return {
    rank(tenantId, arcs, message, keepUnscored = false) {
      const terms = extractQueryTerms(message);
      if (arcs.length === 0 || (terms.length === 0 && !keepUnscored)) return [];
      const docs = arcs.map((arc) => countsOf(tenantId, arc));
      const scores = bm25ScoresOfCounts(docs, terms, SEARCH_CONTEXT_WEIGHT);
      const ranked: RankedArc[] = [];
      arcs.forEach((arc, i) => {
        const score = scores[i] ?? 0;
        if (score > 0 || keepUnscored)
          ranked.push({ threadId: arc.threadId, summary: mementoSummary(arc), score });
      });
      return ranked;
    },
  };
}

function arcChars(arc: RankableArc): number {
  let n = arc.arc.length;
  for (const list of [arc.decisions, arc.active, arc.next, arc.parked])
    for (const s of list) n += s.length + 1;
  return n;
}
