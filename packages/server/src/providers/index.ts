export {
  createProvider,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
  type ProviderOverrides,
} from "./create-provider.js";
export * from "./offline/index.js";
export * from "./openai/index.js";
export type { StreamingLlmProvider } from "./streaming-provider.js";
export { estimateTokens } from "./token-estimate.js";
