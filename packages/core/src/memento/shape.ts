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
  return args.previous ? mementoShapeOf(args.previous) : defaultMementoShape();
}
