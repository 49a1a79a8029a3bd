export { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from "./anthropic-provider.js";
