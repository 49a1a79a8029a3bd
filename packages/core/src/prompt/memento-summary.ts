import type { ThreadMementoV02 } from "../contracts/memento.js";

/** Items shown per memento list before "(+N more)"; keeps retrieval a summary, not a dump. */
export const MEMENTO_LIST_LIMIT = 10;

/** Renders a thread memento as the compact text injected as Retrieval. */
export function renderMementoSummary(memento: ThreadMementoV02): string {
  const lines = [
    `Thread memento (${memento.version}, ${memento.createdTs}):`,
    `Arc: ${memento.arc}`,
    `Active: ${renderList(memento.active)}`,
    `Parked: ${renderList(memento.parked)}`,
    `Decisions: ${renderList(memento.decisions)}`,
    `Next: ${renderList(memento.next)}`,
    `Affect: phase ${memento.affect.rollup.phase}, intensity ${memento.affect.rollup.intensityBucket}`,
  ];
  return lines.join("\n");
}

// Joins up to `limit` items with "; ", or "none"; notes how many were left out.
function renderList(items: readonly string[], limit = MEMENTO_LIST_LIMIT): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, limit).join("; ");
  return items.length > limit ? `${shown} (+${items.length - limit} more)` : shown;
}
