/** One engine hit with what the re-rank looks at. */
export interface RankCandidate {
  readonly memoryId: string;
  /** The engine's relevance, higher is better (FTS5: -bm25; PostgreSQL: ts_rank_cd). */
  readonly engineScore: number;
  readonly domainFlags?: readonly string[] | undefined;
  /** ISO-8601 time the memory was saved. */
  readonly createdAt?: string | undefined;
}

/** Weights of the small features added to the engine's relevance. */
export interface FuseOptions {
  /** The turn's domain flags; a memory sharing one gets the domain boost. */
  readonly domainFlags?: readonly string[] | undefined;
  /** Relative boost for sharing at least one domain flag (default 0.25). */
  readonly domainBoost?: number | undefined;
  /** Reference time for recency (ISO-8601); without it recency is not used. */
  readonly now?: string | undefined;
  /** Relative boost for a memory saved just now, halving every `recencyHalfLifeDays` (default 0.1). */
  readonly recencyBoost?: number | undefined;
  readonly recencyHalfLifeDays?: number | undefined;
}

/** A ranked memory with its final score. */
export interface RankedMemory {
  readonly memoryId: string;
  readonly score: number;
}

const DAY_MS = 86_400_000;

function sharesFlag(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length === 0 || b.length === 0) return false;
  return a.some((flag) => b.includes(flag));
}

// `nowMs` is parsed once per ranking (NaN without a reference time), not once per candidate.
function recencyFactor(createdAt: string | undefined, nowMs: number, halfLifeMs: number): number {
  if (!createdAt || Number.isNaN(nowMs)) return 0;
  const ageMs = nowMs - Date.parse(createdAt);
  if (!Number.isFinite(ageMs)) return 0;
  return 0.5 ** (Math.max(0, ageMs) / halfLifeMs);
}

/**
 * Re-ranks engine hits: the engine's relevance scaled up by a domain-flag match and recency, so the
 * features break near-ties and never lift a weak lexical match over a strong one. Ties keep the
 * engine's order, then the memory id, so the ranking is deterministic.
 */
export function fuseScores(candidates: readonly RankCandidate[], options: FuseOptions = {}): RankedMemory[] {
  const domainBoost = options.domainBoost ?? 0.25;
  const recencyBoost = options.recencyBoost ?? 0.1;
  const nowMs = options.now ? Date.parse(options.now) : Number.NaN;
  const halfLifeMs = (options.recencyHalfLifeDays ?? 30) * DAY_MS;
  const scored = candidates.map((c, order) => {
    const domain = sharesFlag(c.domainFlags, options.domainFlags) ? domainBoost : 0;
    const recency = recencyBoost * recencyFactor(c.createdAt, nowMs, halfLifeMs);
    return { memoryId: c.memoryId, score: c.engineScore * (1 + domain + recency), order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order || compareIds(a.memoryId, b.memoryId));
  return scored.map(({ memoryId, score }) => ({ memoryId, score }));
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
