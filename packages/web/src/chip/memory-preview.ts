import type { ActionNeeded } from "@solserver/core";

/** The action kind of a proposed memory save (api.md §3 "Memories"). */
export const SAVE_MEMORY_KIND = "save_memory";

/**
 * What a `save_memory` chip will remember, from its payload preview (`summary`, else `text`); null
 * for other kinds or a preview without either, in which case the summary bullets say it alone.
 */
export function memoryPreview(action: ActionNeeded): string | null {
  if (action.action_kind !== SAVE_MEMORY_KIND) return null;
  const preview = action.action_payload_preview ?? {};
  for (const key of ["summary", "text"] as const) {
    const value = preview[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return null;
}
