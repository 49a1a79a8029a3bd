import {
  type Bm25Counts,
  bm25Counts,
  bm25ScoresOfCounts,
  cosineSimilarity,
  createLruCache,
  type EmbeddingProvider,
  extractQueryTerms,
  fuseWithEmbeddings,
  type MementoArc,
  type ModeDecision,
  type RetrievalCandidate,
  SEARCH_CONTEXT_WEIGHT,
  selectRetrieval,
  type TurnRetrieval,
} from "@solserver/core";
import { estimateTokens } from "../providers/token-estimate.js";
import type { TurnRun } from "./turn-run.js";

/** Flow pack D: the top N summaries within a token budget. */
export const DEFAULT_RETRIEVAL = Object.freeze({ topN: 5, maxTokens: 600 });
/** Other threads' mementos ranked per turn (the most recently updated). */
const MEMENTO_POOL = 50;
/** With an embedding ranker: the newest memories join the lexical hits, so a paraphrase can be found. */
const RECENT_POOL = 50;

/** What the turn injects ("summaries only") and reports in its response and trace. */
export type TurnRetrievalResult = TurnRetrieval;

/** A memento of another thread as one retrieval summary (its arc and decisions). */
export function mementoSummary(m: MementoArc): string {
  const decided = m.decisions.length === 0 ? "" : ` Decided: ${m.decisions.slice(0, 5).join("; ")}.`;
  return `Thread ${m.threadId}: ${m.arc}.${decided}`;
}

// Every turn ranks up to MEMENTO_POOL other threads' arcs, and an arc changes only when its thread has a
// turn: their term counts are kept per thread with the text they were counted from, and reused only
// while that text is equal, so a turn tokenizes only the arcs that changed. A short key (tenant and
// thread) avoids hashing the text itself; equality decides, so a stale entry is never used. Counting 50
// arcs cost 130-2500 µs a turn (60-1200 characters each); reusing them costs 35-60 µs.
interface CountedArc {
  readonly text: string;
  readonly context: string;
  readonly counts: Bm25Counts;
}
const arcCounts = createLruCache<CountedArc>({
  capacity: 4096,
  charsBudget: 8 * 1024 * 1024,
  sizeOf: (arc) => arc.text.length + arc.context.length,
});

function countsOf(tenantId: string, arc: MementoArc): Bm25Counts {
  const text = `${arc.arc} ${arc.decisions.join(" ")}`;
  const context = [...arc.active, ...arc.next, ...arc.parked].join(" ");
  const key = `${tenantId}\u0000${arc.threadId}`;
  const cached = arcCounts.get(key);
  if (cached !== undefined && cached.text === text && cached.context === context) return cached.counts;
  const counts = bm25Counts({ text, context });
  arcCounts.set(key, { text, context, counts });
  return counts;
}

// Mementos are few per tenant and live as JSON, so they are ranked here with the same BM25 shape
// (text at weight 1, the rest of the memento at the context weight) rather than by the store's engine.
function rankMementos(
  tenantId: string,
  stored: readonly MementoArc[],
  message: string,
  keepUnscored = false,
): RetrievalCandidate[] {
  const terms = extractQueryTerms(message);
  if (stored.length === 0 || (terms.length === 0 && !keepUnscored)) return [];
  const docs = stored.map((s) => countsOf(tenantId, s));
  const scores = bm25ScoresOfCounts(docs, terms, SEARCH_CONTEXT_WEIGHT);
  return stored.flatMap((s, i) => {
    const score = scores[i] ?? 0;
    return score > 0 || keepUnscored
      ? [{ memoryId: `thread:${s.threadId}`, summary: mementoSummary(s), score }]
      : [];
  });
}

/**
 * The retrieval phase: ranks the tenant's memories and its other threads' mementos against the
 * message and the turn's domain flags and keeps the top N within the token budget (the assemble
 * phase injects and traces them). `thread_context_mode: "off"` retrieves nothing. With an embedding
 * ranker the newest memories join the pool and ranks are fused; if it fails the turn keeps the
 * lexical ranking and the trace says so.
 */
export async function retrievalPhase(run: TurnRun, modeDecision: ModeDecision): Promise<TurnRetrievalResult> {
  const { deps, packet, tenantId } = run;
  if (packet.thread_context_mode === "off") return { memories: [] };
  const limits = deps.retrieval ?? DEFAULT_RETRIEVAL;
  if (limits.topN === 0) return { memories: [] };
  const now = new Date(deps.clock.now()).toISOString();
  const embeddings = deps.embeddings;
  const [memories, recent, mementos] = await Promise.all([
    deps.memories?.search(tenantId, {
      query: packet.message,
      domainFlags: modeDecision.domainFlags,
      limit: limits.topN * (embeddings ? 4 : 2),
      now,
    }) ?? [],
    embeddings ? (deps.memories?.list(tenantId, { limit: RECENT_POOL }) ?? []) : [],
    deps.store.mementos.listRecentArcs(tenantId, { excludeThreadId: packet.threadId, limit: MEMENTO_POOL }),
  ]);
  const lexical: RetrievalCandidate[] = [
    ...memories.map((h) => ({ memoryId: h.memory.memoryId, summary: h.memory.summary, score: h.score })),
    ...rankMementos(tenantId, mementos, packet.message, embeddings !== undefined),
  ];
  const seen = new Set(lexical.map((c) => c.memoryId));
  const pool = [
    ...lexical,
    ...recent
      .filter((m) => !seen.has(m.memoryId))
      .map((m) => ({ memoryId: m.memoryId, summary: m.summary, score: 0 })),
  ];
  const candidates = embeddings ? await embeddingRanked(run, embeddings, pool) : lexical;
  const chosen = selectRetrieval(candidates, { ...limits, estimateTokens });
  return { memories: chosen.map(({ memoryId, summary, score }) => ({ memoryId, summary, score })) };
}

async function embeddingRanked(
  run: TurnRun,
  embeddings: EmbeddingProvider,
  pool: readonly RetrievalCandidate[],
): Promise<RetrievalCandidate[]> {
  const lexicalOnly = () => pool.filter((c) => c.score > 0);
  if (pool.length === 0) return [];
  try {
    const [query, ...vectors] = await embeddings.embed([run.packet.message, ...pool.map((c) => c.summary)]);
    const similarities = vectors.map((v) => cosineSimilarity(query ?? [], v));
    const fused = fuseWithEmbeddings(pool, similarities);
    run.trace.add("retrieval_rank", "completed", "Lexical and embedding ranks fused", {
      model: embeddings.model,
      pool: pool.length,
      kept: fused.length,
    });
    return fused;
  } catch (error) {
    run.trace.add("retrieval_rank", "warning", "Embedding ranker failed: lexical ranking kept", {
      model: embeddings.model,
      error: error instanceof Error ? error.message : String(error),
    });
    return lexicalOnly();
  }
}
