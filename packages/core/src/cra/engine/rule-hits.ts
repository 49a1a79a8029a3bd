import type { AtlasContextBlock } from "../atlas/schema.js";
import type { KeywordMatch } from "../keywords/types.js";

/** A keyword rule that matched: its id (what "fires once per session"), keywords and contexts. */
export interface KeywordRuleHit {
  readonly ruleId: string;
  readonly matches: readonly KeywordMatch[];
  readonly contextIds: readonly string[];
}

/** Context blocks looked up by id: the ones found (in request order) and the ids that are unknown. */
export interface ResolvedContextBlocks {
  readonly blocks: readonly AtlasContextBlock[];
  readonly missing: readonly string[];
}
