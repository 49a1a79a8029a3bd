import {
  cosineSimilarity,
  createArcRanker,
  type EmbeddingProvider,
  fuseWithEmbeddings,
  type ModeDecision,
  type RankedArc,
  type RetrievalCandidate,
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

// With an embedding ranker every arc joins the pool, so the arcs are ranked here; otherwise the store
// ranks them where they are (MementoStore.rankRecentArcs) and only the matching ones come back.
const arcRanker = createArcRanker();

/** Other threads' mementos as candidates: `thread:<id>`, beside the memories' ids. */
function arcCandidates(ranked: readonly RankedArc[]): RetrievalCandidate[] {
  return ranked.map((r) => ({ memoryId: `thread:${r.threadId}`, summary: r.summary, score: r.score }));
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
    rankedArcs(run),
  ]);
  const lexical: RetrievalCandidate[] = [
    ...memories.map((h) => ({ memoryId: h.memory.memoryId, summary: h.memory.summary, score: h.score })),
    ...arcCandidates(mementos),
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

/** The other threads' arcs that match the message, or with an embedding ranker all of them, scored. */
async function rankedArcs(run: TurnRun): Promise<RankedArc[]> {
  const { deps, packet, tenantId } = run;
  const options = { excludeThreadId: packet.threadId, limit: MEMENTO_POOL };
  if (deps.embeddings === undefined) {
    return deps.store.mementos.rankRecentArcs(tenantId, { ...options, query: packet.message });
  }
  return arcRanker.rank(
    tenantId,
    await deps.store.mementos.listRecentArcs(tenantId, options),
    packet.message,
    true,
  );
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
