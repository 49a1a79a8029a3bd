export { startAnthropicUpstream } from "./anthropic-upstream.js";
export { startGeminiUpstream } from "./gemini-upstream.js";
export { startOllamaUpstream } from "./ollama-upstream.js";
export { MODEL_BEHAVIOURS, type ReplayEntry, type ReplayStep } from "./replay.js";
export {
  echoEnvelope,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedUpstream,
  type ScriptedUpstreamOptions,
  type ScriptStep,
  startScriptedUpstream,
} from "./scripted-upstream.js";
export type { WireUpstream, WireUpstreamOptions } from "./upstream-server.js";
