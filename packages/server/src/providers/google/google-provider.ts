import type { LlmRequest } from "@solserver/core";
import { resolveSdkOptions, type SdkProviderOptions } from "../ai-sdk/sdk-options.js";
import { createSdkProvider, type StructuredCallOptions } from "../ai-sdk/sdk-provider.js";
import type { StreamingLlmProvider } from "../streaming-provider.js";

/** The Gemini API endpoint used when no base URL is configured. */
export const GOOGLE_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/**
 * Google's Gemini API (generateContent, streamGenerateContent) through `@ai-sdk/google`. Structured
 * output is `responseMimeType: application/json` with the schema as `responseSchema`; `json` alone is
 * JSON mode (the MIME type without a schema).
 */
export function createGoogleProvider(options: SdkProviderOptions): StreamingLlmProvider {
  const cfg = resolveSdkOptions(options);
  const model = async () => {
    const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
    const sdk = createGoogleGenerativeAI({
      baseURL: cfg.baseUrl ?? GOOGLE_DEFAULT_BASE_URL,
      apiKey: cfg.apiKey,
      headers: cfg.headers,
      ...(cfg.fetch === undefined ? {} : { fetch: cfg.fetch }),
    });
    return sdk.languageModel(cfg.model);
  };
  return createSdkProvider({ name: "google", model, options: cfg, structured });
}

function structured(request: LlmRequest): StructuredCallOptions {
  const format = request.responseFormat;
  if (format?.type === "json_schema") {
    return { responseFormat: { type: "json", name: format.name, schema: format.schema as never } };
  }
  return format !== undefined || request.json ? { responseFormat: { type: "json" } } : {};
}
