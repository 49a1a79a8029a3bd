import type { ThreadMementoShape } from "../contracts/memento.js";
import { clipText } from "../text/index.js";
import { mementoShapeOf } from "./shape.js";

const ITEM_MAX = 200;
const LIST_MAX = 50;

function folded(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The shape with each detected decision appended to `decisions` unless one already says it (either
 * text contains the other, case and punctuation aside). A model that omits a decision the user
 * stated must not keep it out of the memento; beyond 50 items the oldest are dropped.
 */
export function withDetectedDecisions(
  shape: ThreadMementoShape,
  detected: readonly string[],
): ThreadMementoShape {
  const next = mementoShapeOf(shape);
  for (const raw of detected) {
    const text = clipText(raw.trim(), ITEM_MAX);
    const key = folded(text);
    if (key === "") continue;
    const known = next.decisions.some((item) => {
      const other = folded(item);
      return other !== "" && (other.includes(key) || key.includes(other));
    });
    if (!known) next.decisions.push(text);
  }
  next.decisions = next.decisions.slice(-LIST_MAX);
  return next;
}
