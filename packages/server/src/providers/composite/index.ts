export { createFallbackProvider, isFallbackWorthy, providerLabel } from "./fallback-provider.js";
export { routeSelectorCalls } from "./selector-routing.js";
