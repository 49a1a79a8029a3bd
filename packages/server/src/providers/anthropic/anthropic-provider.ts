import type { LlmRequest } from "@solserver/core";
import { resolveSdkOptions, type SdkProviderOptions } from "../ai-sdk/sdk-options.js";
import { createSdkProvider, type StructuredCallOptions } from "../ai-sdk/sdk-provider.js";
import type { StreamingLlmProvider } from "../streaming-provider.js";

/** The Messages API endpoint used when no base URL is configured. */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com/v1";

/**
 * Anthropic's Messages API through `@ai-sdk/anthropic`. A JSON schema is asked for with tool use: one
 * tool whose input schema is the schema, the model made to call it, and the tool input returned (and
 * streamed) as the reply text. Anthropic has no JSON mode, so `json` alone relies on the prompt.
 */
export function createAnthropicProvider(options: SdkProviderOptions): StreamingLlmProvider {
  const cfg = resolveSdkOptions(options);
  const model = async () => {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    const sdk = createAnthropic({
      baseURL: cfg.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
      apiKey: cfg.apiKey,
      headers: cfg.headers,
      ...(cfg.fetch === undefined ? {} : { fetch: cfg.fetch }),
    });
    return sdk.messages(cfg.model);
  };
  return createSdkProvider({ name: "anthropic", model, options: cfg, structured });
}

function structured(request: LlmRequest): StructuredCallOptions {
  const format = request.responseFormat;
  if (format?.type !== "json_schema") return {};
  return {
    responseFormat: { type: "json", name: format.name, schema: format.schema as never },
    // Tool use rather than Anthropic's newer output_format: it works on every Claude model and
    // streams the JSON as it is written.
    providerOptions: { anthropic: { structuredOutputMode: "jsonTool" } },
  };
}
