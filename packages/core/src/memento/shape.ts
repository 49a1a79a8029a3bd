import type { ThreadMementoShape } from "../contracts/memento.js";

/** The shape of a thread that has no summary yet. Returns a fresh object on every call. */
export function defaultMementoShape(): ThreadMementoShape {
  return { arc: "support", active: [], parked: [], decisions: [], next: [] };
}

/** Copies just the summary fields (a whole memento is accepted, its other fields are left out). */
export function mementoShapeOf(source: ThreadMementoShape): ThreadMementoShape {
  return {
    arc: source.arc,
    active: [...source.active],
    parked: [...source.parked],
    decisions: [...source.decisions],
    next: [...source.next],
  };
}

/**
 * The shape a turn keeps when the model's is discarded or absent (breakpoint-engine.md:
 * `modelShape ?? bootstrapThreadMementoShape(previous)`): the previous memento's summary fields,
 * or the default shape on a thread's first turn.
 */
export function bootstrapThreadMementoShape(previous?: ThreadMementoShape | null): ThreadMementoShape {
  return previous ? mementoShapeOf(previous) : defaultMementoShape();
}

const LIST_FIELDS = ["active", "parked", "decisions", "next"] as const;

/** True when two shapes hold the same arc and the same lists in the same order. */
export function sameMementoShape(a: ThreadMementoShape, b: ThreadMementoShape): boolean {
  return (
    a.arc === b.arc &&
    LIST_FIELDS.every(
      (field) => a[field].length === b[field].length && a[field].every((v, i) => v === b[field][i]),
    )
  );
}

export interface MergeMementoShapeArgs {
  /** The previous memento or shape; absent for a thread's first turn. */
  readonly previous?: ThreadMementoShape | null | undefined;
  /** The model's proposed shape for this turn. */
  readonly proposedShape?: ThreadMementoShape | null | undefined;
  /** The peak guardrail's verdict: when true the proposal is discarded. */
  readonly freeze: boolean;
}

/** Next summary shape: the proposal unless frozen or absent, then the previous shape, then the default. */
export function mergeMementoShape(args: MergeMementoShapeArgs): ThreadMementoShape {
  if (!args.freeze && args.proposedShape) return mementoShapeOf(args.proposedShape);
  return bootstrapThreadMementoShape(args.previous);
}

export interface RebaseMementoShapeArgs {
  /** The shape the model was shown (what its proposal was written against). */
  readonly base: ThreadMementoShape | null;
  /** The model's proposal. */
  readonly proposed: ThreadMementoShape;
  /** The shape stored now, after a concurrent turn changed it. */
  readonly current: ThreadMementoShape | null;
}

const MAX_LIST_ITEMS = 50;

/**
 * Three-way merge for a compare-and-swap retry: applies what the proposal changed relative to
 * `base` (items it added or removed, a new arc) onto `current`, so a concurrent turn's changes are
 * kept instead of being overwritten by a proposal written against an older memento. Lists keep
 * current's order with the additions appended; beyond 50 items the oldest are dropped.
 */
export function rebaseMementoShape(args: RebaseMementoShapeArgs): ThreadMementoShape {
  const base = args.base ?? defaultMementoShape();
  const current = args.current ?? base;
  const merged = mementoShapeOf(current);
  merged.arc = args.proposed.arc !== base.arc ? args.proposed.arc : current.arc;
  for (const field of LIST_FIELDS) {
    const before = new Set(base[field]);
    const after = new Set(args.proposed[field]);
    const kept = current[field].filter((item) => !before.has(item) || after.has(item));
    const seen = new Set(kept);
    for (const item of args.proposed[field]) {
      if (!before.has(item) && !seen.has(item)) {
        kept.push(item);
        seen.add(item);
      }
    }
    merged[field] = kept.slice(-MAX_LIST_ITEMS);
  }
  return merged;
}
