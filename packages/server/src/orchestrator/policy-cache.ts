import type { PolicyEngine, PolicyRequest } from "@solserver/core";

/** Distinct (mode, refs, modeLabel) combinations kept; real deployments use a handful. */
const DEFAULT_CAPACITY = 512;

/**
 * Wraps a policy engine so requests without inline blocks reuse their compiled policy. The engine is
 * pure over its frozen configuration and returns deep-frozen results, so sharing one result is safe;
 * requests with inline blocks (client-authored, rarely repeated) always compile afresh.
 */
export function memoizePolicyEngine(engine: PolicyEngine, capacity = DEFAULT_CAPACITY): PolicyEngine {
  const cache = new Map<string, ReturnType<PolicyEngine["resolve"]>>();
  const resolve = (request: PolicyRequest) => {
    if ((request.driverBlockInline?.length ?? 0) > 0) return engine.resolve(request);
    const key = JSON.stringify([
      request.driverBlockMode ?? "default",
      (request.driverBlockRefs ?? []).map((r) => [r.id, r.version]),
      request.modeLabel ?? null,
    ]);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const result = engine.resolve(request);
    if (cache.size >= capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
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
