import { canonicalJson, createLruCache, type PolicyEngine, type PolicyRequest } from "@solserver/core";

/** Distinct requests kept; real deployments use a handful of modes, refs and block sets. */
const DEFAULT_CAPACITY = 512;
/** Characters of keys kept at most: inline blocks make keys as long as the blocks themselves. */
const KEY_CHARS_BUDGET = 4 * 1024 * 1024;

/**
 * Wraps a policy engine so a request it has seen reuses its compiled policy. The engine is pure over
 * its frozen configuration and returns deep-frozen results, so sharing one result is safe. The key is
 * the request's content: mode, refs, mode label and, for inline blocks (a client's or the user's stored
 * blocks, sent again on every turn of a thread), their canonical JSON. Compiling cost ~70-280 µs a
 * turn; the key costs a few µs. A least recently used entry leaves first, within a count and a key-size budget.
 */
export function memoizePolicyEngine(engine: PolicyEngine, capacity = DEFAULT_CAPACITY): PolicyEngine {
  const cache = createLruCache<ReturnType<PolicyEngine["resolve"]>>({
    capacity,
    charsBudget: KEY_CHARS_BUDGET,
  });
  const resolve = (request: PolicyRequest) => {
    const key = policyKey(request);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const result = engine.resolve(request);
    cache.set(key, result);
    return result;
  };
  return Object.freeze({
    limits: engine.limits,
    systemBlocks: engine.systemBlocks,
    baselineRefs: engine.baselineRefs,
    resolve,
  });
}

/** Everything a resolve depends on besides the engine's own configuration, as one string. */
function policyKey(request: PolicyRequest): string {
  const inline = request.driverBlockInline ?? [];
  return JSON.stringify([
    request.driverBlockMode ?? "default",
    (request.driverBlockRefs ?? []).map((r) => [r.id, r.version]),
    request.modeLabel ?? null,
    inline.length === 0 ? null : canonicalJson(inline),
  ]);
}
