export { type ConcurrencyLimit, createConcurrencyLimit } from "./concurrency.js";
export {
  chooseLimitStore,
  type LimitStore,
  type LimitStoreKind,
  type LimitStoreOptions,
  openLimitStore,
} from "./limit-store.js";
export { limitTurns } from "./limit-turns.js";
export { createRequestLimits, type RequestLimitOptions, type RequestLimits } from "./request-limits.js";
