export {
  createProvider,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
  type ProviderOverrides,
} from "./create-provider.js";
export {
  createOpenAiEmbeddings,
  type OpenAiEmbeddingsOptions,
  withEmbeddingCache,
} from "./embeddings/index.js";
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
  type OpenAiProviderOptions,
  parseRetryAfter,
  readSseData,
  type SleepFn,
} from "./openai/index.js";
export type { StreamingLlmProvider } from "./streaming-provider.js";
export { estimateTokens } from "./token-estimate.js";
