import type { AtlasContextBlock } from "../atlas/schema.js";
import { matchKeywords } from "../keywords/match-keywords.js";

/**
 * Context blocks a free-text request asks for: named by id (a word of the request) or by name (a
 * substring), or whose checkpoint keywords match it. Once-per-session marks are not consulted: the
 * caller asked. Blocks come back in atlas order.
 */
export function blocksRequestedBy(
  blocks: readonly AtlasContextBlock[],
  request: string,
): AtlasContextBlock[] {
  if (request.trim() === "") return [];
  const lower = request.toLowerCase();
  const words = new Set(lower.split(/[\s,;]+/).filter(Boolean));
  return blocks.filter((block) => {
    if (words.has(block.context_id.toLowerCase()) || lower.includes(block.name.toLowerCase())) return true;
    const cfg = block.checkpoint_config;
    return (
      cfg !== undefined &&
      cfg.keywords.length > 0 &&
      matchKeywords(request, cfg.keywords, cfg.match_mode, {
        caseSensitive: cfg.case_sensitive,
        threshold: cfg.threshold,
      }).triggered
    );
  });
}
