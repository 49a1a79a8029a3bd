import { SolError } from "@solserver/core";
import { createOfflineProvider, type OfflineProviderOptions } from "./offline/index.js";
import { createOpenAiProvider, type OpenAiProviderOptions } from "./openai/index.js";
import type { StreamingLlmProvider } from "./streaming-provider.js";

export const PROVIDER_KINDS = ["offline", "openai"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Provider settings as they appear in the environment or `sol.config.json` (api.md §1). */
export interface ProviderConfig {
  readonly SOL_LLM?: string;
  readonly SOL_LLM_BASE_URL?: string;
  readonly SOL_LLM_API_KEY?: string;
  readonly SOL_LLM_MODEL?: string;
}

/** Non-configuration extras: injected clock/fetch/sleep, timeouts, retry policy. */
export interface ProviderOverrides {
  readonly offline?: OfflineProviderOptions;
  readonly openai?: Omit<OpenAiProviderOptions, "baseUrl" | "model" | "apiKey">;
}

/**
 * Builds the configured provider: `offline` (the default) or `openai` (any OpenAI-compatible server).
 * Throws SolError("invalid_input") naming each missing or bad field.
 */
export function createProvider(
  config: ProviderConfig,
  overrides: ProviderOverrides = {},
): StreamingLlmProvider {
  const kind = blankToUndefined(config.SOL_LLM)?.toLowerCase() ?? "offline";
  if (kind === "offline") return createOfflineProvider(overrides.offline);
  if (kind !== "openai") {
    throw new SolError(
      "invalid_input",
      `SOL_LLM must be one of ${PROVIDER_KINDS.join(", ")} (got "${kind}").`,
      {
        details: { fields: [{ field: "SOL_LLM", message: `expected one of ${PROVIDER_KINDS.join(", ")}` }] },
      },
    );
  }
  const baseUrl = blankToUndefined(config.SOL_LLM_BASE_URL);
  const model = blankToUndefined(config.SOL_LLM_MODEL);
  const missing = [
    ...(baseUrl === undefined
      ? [{ field: "SOL_LLM_BASE_URL", message: "required when SOL_LLM is openai" }]
      : []),
    ...(model === undefined ? [{ field: "SOL_LLM_MODEL", message: "required when SOL_LLM is openai" }] : []),
  ];
  if (baseUrl === undefined || model === undefined) {
    throw new SolError(
      "invalid_input",
      `SOL_LLM=openai needs ${missing.map((m) => m.field).join(" and ")}.`,
      { details: { fields: missing } },
    );
  }
  const apiKey = blankToUndefined(config.SOL_LLM_API_KEY);
  return createOpenAiProvider({
    ...overrides.openai,
    baseUrl,
    model,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
