import type { Thought } from "./thought.js";

/** Of the low-novelty thoughts that are not task-worthy, one in this many is broadcast. */
export const LOW_NOVELTY_BROADCAST_EVERY = 5;
/** Local thought history keeps at most this many thoughts by default (oldest dropped first). */
export const DEFAULT_THOUGHT_HISTORY_LIMIT = 200;
/** Word-set overlap (Jaccard) at or above which two thoughts count as similar. */
export const SIMILARITY_THRESHOLD = 0.8;

export interface RecordingState {
  /** Local thought history, oldest first. */
  readonly history: readonly Thought[];
  /** Non-task-worthy low-novelty thoughts seen so far (drives the 1-in-5 broadcast). */
  readonly lowNoveltySeen: number;
  readonly historyLimit: number;
}

export interface RecordOutcome {
  readonly state: RecordingState;
  /** The thought as stored in history (low novelty and not eligible when dedup fired). */
  readonly recorded: Thought;
  /** What to emit to the stream, if anything. */
  readonly broadcast?: Thought;
  /** True when content dedup fired for this thought. */
  readonly contentDedup: boolean;
}

/** An empty history. */
export function createRecordingState(historyLimit = DEFAULT_THOUGHT_HISTORY_LIMIT): RecordingState {
  return { history: [], lowNoveltySeen: 0, historyLimit: Math.max(1, Math.floor(historyLimit)) };
}

function push(history: readonly Thought[], thought: Thought, limit: number): Thought[] {
  const next = [...history, thought];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/**
 * Records a thought (the recording fix). A thought that is not `similar` is kept and broadcast
 * as is. A similar one (content dedup) is tagged `novelty: 'low'`, `convertEligible: false`,
 * still kept in history, and broadcast with `metadata.fallback: true`: always when it carries an
 * extractedGoal, otherwise the first of every LOW_NOVELTY_BROADCAST_EVERY.
 */
export function recordThought(
  state: RecordingState,
  thought: Thought,
  options: { readonly similar: boolean },
): RecordOutcome {
  if (!options.similar) {
    return {
      state: { ...state, history: push(state.history, thought, state.historyLimit) },
      recorded: thought,
      broadcast: thought,
      contentDedup: false,
    };
  }
  const recorded: Thought = { ...thought, novelty: "low", convertEligible: false };
  const taskWorthy = recorded.metadata.extractedGoal !== undefined;
  const lowNoveltySeen = taskWorthy ? state.lowNoveltySeen : state.lowNoveltySeen + 1;
  const emit = taskWorthy || (lowNoveltySeen - 1) % LOW_NOVELTY_BROADCAST_EVERY === 0;
  const next: RecordingState = {
    ...state,
    history: push(state.history, recorded, state.historyLimit),
    lowNoveltySeen,
  };
  const broadcast: Thought = { ...recorded, metadata: { ...recorded.metadata, fallback: true } };
  return emit
    ? { state: next, recorded, broadcast, contentDedup: true }
    : { state: next, recorded, contentDedup: true };
}

/** What similarity compares: a text, or a thought's text and goalKey. */
export type SimilarityInput =
  | string
  | (Pick<Thought, "text"> & { readonly metadata?: { readonly goalKey?: string | undefined } });

/** Lowercased letter/digit words of a text, as a set. */
function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The goalKey of a thought; a blank one means none, as everywhere in the pipeline. */
function goalKeyOf(input: SimilarityInput): string | undefined {
  const key = typeof input === "string" ? undefined : input.metadata?.goalKey;
  return key === undefined || key.trim() === "" ? undefined : key;
}

/**
 * Deterministic similarity: two thoughts are similar when their goalKeys are equal (both absent
 * counts as equal) and their sets of lowercased words are equal or overlap by at least
 * SIMILARITY_THRESHOLD (Jaccard). Two texts without words match only through a shared goalKey:
 * once a tag is cut out, "[GOAL: mine stone]" and "[GOAL: smelt iron_ore]" both leave "".
 * Symmetric.
 */
export function isSimilarThought(a: SimilarityInput, b: SimilarityInput): boolean {
  const key = goalKeyOf(a);
  if (key !== goalKeyOf(b)) return false;
  const wa = wordSet(typeof a === "string" ? a : a.text);
  const wb = wordSet(typeof b === "string" ? b : b.text);
  if (wa.size === 0 && wb.size === 0) return key !== undefined;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared) >= SIMILARITY_THRESHOLD;
}

/** True when `thought` is similar to one of the last `window` thoughts in history. */
export function hasSimilarRecent(state: RecordingState, thought: SimilarityInput, window = 10): boolean {
  const recent = state.history.slice(Math.max(0, state.history.length - window));
  return recent.some((t) => isSimilarThought(t, thought));
}
