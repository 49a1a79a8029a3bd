import { clipText } from "../text/clip.js";

/** Longest memory summary (api.md §3). */
export const MAX_MEMORY_SUMMARY = 400;

/** The summary of a memory saved without one: its text on one line, clipped to 400 characters. */
export function deriveMemorySummary(text: string): string {
  return clipText(text.replace(/\s+/g, " ").trim(), MAX_MEMORY_SUMMARY);
}
