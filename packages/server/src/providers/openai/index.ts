export { buildChatBody, type ChatBodyQuirks, type StructuredOutputSupport } from "./chat-body.js";
export { createNodeHttpFetch, type NodeHttpFetchOptions } from "./node-http-fetch.js";
export { createOpenAiProvider } from "./openai-provider.js";
export type { FetchLike, OpenAiProviderOptions } from "./options.js";
export { OPENAI_PRESETS, type OpenAiPreset, type OpenAiPresetSettings, openAiPreset } from "./presets.js";
export { backoffDelay, defaultSleep, isRetryableStatus, parseRetryAfter, type SleepFn } from "./retry.js";
export { readSseData } from "./sse.js";
