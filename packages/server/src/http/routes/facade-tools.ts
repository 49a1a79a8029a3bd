import { SolError } from "@solserver/core";
import { OFFLINE_PROVIDER_NAME } from "../../providers/offline/index.js";

/**
 * Providers whose requests cannot carry the client's OpenAI function tools: the offline provider
 * cannot call functions, and the native `anthropic` and `google` providers (AI SDK) send the envelope
 * as their own structured output and have no passthrough, so tools would be dropped without a word.
 */
const NO_TOOLS: Readonly<Record<string, string>> = {
  [OFFLINE_PROVIDER_NAME]: "the offline provider cannot call functions",
  anthropic: "the anthropic provider does not pass OpenAI function tools through",
  google: "the google provider does not pass OpenAI function tools through",
};

/** Throws a 400 naming `field` when the request asks for tools the turn's provider cannot honour. */
export function refuseUnsupportedTools(providerName: string, field: "tools" | "functions" | null): void {
  const reason = NO_TOOLS[providerName];
  if (field === null || reason === undefined) return;
  throw new SolError("invalid_input", `${field} require SOL_LLM=openai: ${reason}.`, { details: { field } });
}
