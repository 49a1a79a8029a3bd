export type { SdkProviderOptions } from "./ai-sdk/index.js";
export { createAnthropicProvider } from "./anthropic/index.js";
export { createFallbackProvider, isFallbackWorthy, routeSelectorCalls } from "./composite/index.js";
export { createProvider, type ProviderConfig, type ProviderOverrides } from "./create-provider.js";
export {
  createOpenAiEmbeddings,
  type OpenAiEmbeddingsOptions,
  withEmbeddingCache,
} from "./embeddings/index.js";
export { createGoogleProvider } from "./google/index.js";
export {
  buildOfflineEnvelope,
  createOfflineProvider,
  type DueTimeContext,
  detectReminder,
  OFFLINE_MODEL,
  OFFLINE_PROVIDER_NAME,
  type OfflineProviderOptions,
  offlineModeDecision,
  type ReminderRequest,
  resolveDueTime,
} from "./offline/index.js";
export {
  backoffDelay,
  buildChatBody,
  createNodeHttpFetch,
  createOpenAiProvider,
  defaultSleep,
  type FetchLike,
  isRetryableStatus,
  type NodeHttpFetchOptions,
  OPENAI_PRESETS,
  type OpenAiPreset,
  type OpenAiProviderOptions,
  openAiPreset,
  parseRetryAfter,
  readSseData,
  type SleepFn,
} from "./openai/index.js";
export {
  FallbackEntry,
  FallbacksSetting,
  MODEL_PROVIDER_KINDS,
  type ModelProviderKind,
  PROVIDER_KINDS,
  ProviderHeadersSetting,
  type ProviderKind,
} from "./provider-settings.js";
export type { StreamingLlmProvider } from "./streaming-provider.js";
export { estimateTokens } from "./token-estimate.js";
