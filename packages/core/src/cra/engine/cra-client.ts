import type { Atlas, AtlasContextBlock, CheckpointConfig } from "../atlas/schema.js";
import type { CheckpointAction, CheckpointPolicyDecision } from "../contracts.js";
import { matchKeywords } from "../keywords/match-keywords.js";
import type { ContextInjectMode } from "../types.js";
import { ruleKeywords } from "./keyword-index.js";
import { blocksRequestedBy } from "./requested-blocks.js";
import type { ResolvedContextBlocks } from "./rule-hits.js";

/** A context block as the spec's handlers read it: `id` and `content` (the block's own fields kept). */
export type CraContext = AtlasContextBlock & { readonly id: string };

/** What `requestContext` narrows the atlas's context blocks by. */
export interface RequestContextOptions {
  /** Only blocks with this inject mode (the spec's session start asks for `always`). */
  readonly injectMode?: ContextInjectMode;
  /** Keywords that matched: the blocks and keyword-map contexts they belong to (the spec's keyword handler). */
  readonly hints?: readonly string[];
}

/**
 * The spec's `CheckpointContext.client`: context and policy lookups for handlers, backed by the
 * engine (cached, and through its context provider and policy checker).
 */
export interface CRAClient {
  /**
   * Context blocks for a query: with `injectMode` and/or `hints`, those they select; with neither,
   * the blocks the query names (id or name) or whose keywords it matches. `never` blocks are left out.
   */
  requestContext(query: string | undefined, options?: RequestContextOptions): Promise<CraContext[]>;
  /** The context blocks with these ids, in request order (unknown ids are left out). */
  getContexts(ids: readonly string[]): Promise<CraContext[]>;
  /** The policy decision for an action (cached for `policy_ttl_seconds`). */
  checkPolicy(action: CheckpointAction): Promise<CheckpointPolicyDecision>;
}

export interface CraClientDeps {
  readonly atlas: Atlas;
  readonly config: CheckpointConfig;
  getContexts(ids: readonly string[]): Promise<ResolvedContextBlocks>;
  checkPolicy(action: CheckpointAction): Promise<CheckpointPolicyDecision>;
}

const fold = (text: string, caseSensitive: boolean) => (caseSensitive ? text : text.toLowerCase());

/** Context ids the matched keywords belong to: keyword-map entries first, then context blocks. */
function idsForHints(atlas: Atlas, config: CheckpointConfig, hints: readonly string[]): string[] {
  const ids: string[] = [];
  const km = config.keyword_match;
  for (const [pattern, contextIds] of Object.entries(km.keywords)) {
    const related =
      km.match_mode === "regex"
        ? hints.some(
            (h) => matchKeywords(h, [pattern], "regex", { caseSensitive: km.case_sensitive }).triggered,
          )
        : ruleKeywords(pattern, km.match_mode).some((k) =>
            hints.some((h) => fold(h, km.case_sensitive) === fold(k, km.case_sensitive)),
          );
    if (related) ids.push(...contextIds);
  }
  for (const block of atlas.context_blocks) {
    const cfg = block.checkpoint_config;
    if (!cfg) continue;
    const related = cfg.keywords.some((k) =>
      hints.some((h) => fold(h, cfg.case_sensitive) === fold(k.trim(), cfg.case_sensitive)),
    );
    if (related) ids.push(block.context_id);
  }
  return ids;
}

/** Blocks a free-text query names (id or name) or whose keywords match. */
function idsForQuery(atlas: Atlas, query: string): string[] {
  return blocksRequestedBy(atlas.context_blocks, query).map((block) => block.context_id);
}

/** Builds the client a handler sees as `ctx.client`. */
export function createCraClient(deps: CraClientDeps): CRAClient {
  const resolve = async (ids: readonly string[]): Promise<CraContext[]> => {
    const { blocks } = await deps.getContexts([...new Set(ids)]);
    return blocks.map((block) => ({ ...block, id: block.context_id }));
  };
  return {
    async requestContext(query, options = {}) {
      const modes = new Map(deps.atlas.context_blocks.map((b) => [b.context_id, b.inject_mode]));
      let ids: string[];
      if (options.hints !== undefined) ids = idsForHints(deps.atlas, deps.config, options.hints);
      else if (options.injectMode !== undefined) ids = deps.atlas.context_blocks.map((b) => b.context_id);
      else ids = idsForQuery(deps.atlas, query ?? "");
      const wanted = ids.filter((id) => {
        const mode = modes.get(id);
        if (mode === "never") return false;
        return options.injectMode === undefined || mode === options.injectMode;
      });
      return resolve(wanted);
    },
    getContexts: resolve,
    checkPolicy: (action) => deps.checkPolicy(action),
  };
}
