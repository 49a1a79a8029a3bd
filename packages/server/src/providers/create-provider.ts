import { SolError } from "@solserver/core";
import type { SdkProviderOptions } from "./ai-sdk/sdk-options.js";
import { createAnthropicProvider } from "./anthropic/index.js";
import { createFallbackProvider, routeSelectorCalls } from "./composite/index.js";
import { createGoogleProvider } from "./google/index.js";
import { createOfflineProvider, type OfflineProviderOptions } from "./offline/index.js";
import { createOpenAiProvider, type OpenAiProviderOptions, openAiPreset } from "./openai/index.js";
import { OPENAI_PRESETS, type OpenAiPreset } from "./openai/presets.js";
import {
  type FallbackEntry,
  FallbacksSetting,
  type ModelProviderKind,
  PROVIDER_KINDS,
  ProviderHeadersSetting,
} from "./provider-settings.js";
import type { StreamingLlmProvider } from "./streaming-provider.js";

/** Provider settings as they appear in the environment or `sol.config.json` (api.md §1). */
export interface ProviderConfig {
  readonly SOL_LLM?: string;
  readonly SOL_LLM_BASE_URL?: string;
  readonly SOL_LLM_API_KEY?: string;
  readonly SOL_LLM_MODEL?: string;
  /** A local OpenAI-compatible server's preset (ollama, vllm, llamacpp, lmstudio). */
  readonly SOL_LLM_PRESET?: string;
  /** JSON text or the parsed object. */
  readonly SOL_LLM_HEADERS?: string | Readonly<Record<string, string>>;
  readonly SOL_SELECTOR_MODEL?: string;
  /** JSON text or the parsed list. */
  readonly SOL_LLM_FALLBACKS?: string | readonly FallbackEntry[];
}

/** Non-configuration extras: injected clock/fetch/sleep, timeouts, retry policy. */
export interface ProviderOverrides {
  readonly offline?: OfflineProviderOptions;
  readonly openai?: Omit<OpenAiProviderOptions, "baseUrl" | "model" | "apiKey" | "headers">;
  /** For the Anthropic and Gemini adapters. */
  readonly sdk?: Omit<SdkProviderOptions, "baseUrl" | "model" | "apiKey" | "headers">;
}

/** One model provider to build. */
interface ModelTarget {
  readonly kind: ModelProviderKind;
  readonly model: string;
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly preset?: OpenAiPreset | undefined;
}

/**
 * Builds the configured provider: `offline` (the default), `openai` (any OpenAI-compatible server,
 * with a local preset), `anthropic` or `google`; the selector on SOL_SELECTOR_MODEL; SOL_LLM_FALLBACKS
 * after it. Throws SolError("invalid_input") naming each missing or bad field.
 */
export function createProvider(
  config: ProviderConfig,
  overrides: ProviderOverrides = {},
): StreamingLlmProvider {
  const kind = blankToUndefined(config.SOL_LLM)?.toLowerCase() ?? "offline";
  if (kind === "offline") return createOfflineProvider(overrides.offline);
  if (!isModelKind(kind)) {
    throw invalid("SOL_LLM", `SOL_LLM must be one of ${PROVIDER_KINDS.join(", ")} (got "${kind}").`);
  }
  const primary = primaryTarget(kind, config);
  const selectorModel = blankToUndefined(config.SOL_SELECTOR_MODEL);
  const main = buildModelProvider(primary, overrides);
  const routed =
    selectorModel === undefined || selectorModel === primary.model
      ? main
      : routeSelectorCalls(main, buildModelProvider({ ...primary, model: selectorModel }, overrides));
  const fallbacks = parseSetting(FallbacksSetting, "SOL_LLM_FALLBACKS", config.SOL_LLM_FALLBACKS) ?? [];
  return createFallbackProvider([
    routed,
    ...fallbacks.map((entry) => buildModelProvider(fallbackTarget(entry, primary), overrides)),
  ]);
}

function primaryTarget(kind: ModelProviderKind, config: ProviderConfig): ModelTarget {
  const presetName = blankToUndefined(config.SOL_LLM_PRESET)?.toLowerCase();
  if (presetName !== undefined && !(OPENAI_PRESETS as readonly string[]).includes(presetName)) {
    throw invalid("SOL_LLM_PRESET", `SOL_LLM_PRESET must be one of ${OPENAI_PRESETS.join(", ")}.`);
  }
  if (presetName !== undefined && kind !== "openai") {
    throw invalid("SOL_LLM_PRESET", "SOL_LLM_PRESET applies only to SOL_LLM=openai.");
  }
  const preset = presetName as OpenAiPreset | undefined;
  const baseUrl =
    blankToUndefined(config.SOL_LLM_BASE_URL) ??
    (preset === undefined ? undefined : openAiPreset(preset).baseUrl);
  const model = blankToUndefined(config.SOL_LLM_MODEL);
  const apiKey = blankToUndefined(config.SOL_LLM_API_KEY);
  const missing = [
    ...(kind === "openai" && baseUrl === undefined ? ["SOL_LLM_BASE_URL"] : []),
    ...(model === undefined ? ["SOL_LLM_MODEL"] : []),
    ...(kind !== "openai" && apiKey === undefined ? ["SOL_LLM_API_KEY"] : []),
  ];
  if (model === undefined || missing.length > 0) {
    throw new SolError("invalid_input", `SOL_LLM=${kind} needs ${missing.join(" and ")}.`, {
      details: { fields: missing.map((field) => ({ field, message: `required when SOL_LLM is ${kind}` })) },
    });
  }
  const headers = parseSetting(ProviderHeadersSetting, "SOL_LLM_HEADERS", config.SOL_LLM_HEADERS) ?? {};
  return { kind, model, baseUrl, apiKey, headers, preset };
}

/** A fallback of the primary's own kind reuses its endpoint, key and headers unless it names its own. */
function fallbackTarget(entry: FallbackEntry, primary: ModelTarget): ModelTarget {
  const same = entry.provider === primary.kind;
  const preset = entry.preset ?? (same ? primary.preset : undefined);
  const baseUrl =
    entry.baseUrl ??
    (same ? primary.baseUrl : preset === undefined ? undefined : openAiPreset(preset).baseUrl);
  if (entry.provider === "openai" && baseUrl === undefined) {
    throw invalid(
      "SOL_LLM_FALLBACKS",
      `SOL_LLM_FALLBACKS entry ${entry.provider}/${entry.model} needs a baseUrl.`,
    );
  }
  const apiKey = entry.apiKey ?? (same ? primary.apiKey : undefined);
  if (entry.provider !== "openai" && apiKey === undefined) {
    throw invalid(
      "SOL_LLM_FALLBACKS",
      `SOL_LLM_FALLBACKS entry ${entry.provider}/${entry.model} needs an apiKey.`,
    );
  }
  return {
    kind: entry.provider,
    model: entry.model,
    baseUrl,
    apiKey,
    headers: entry.headers ?? (same ? primary.headers : {}),
    preset,
  };
}

function buildModelProvider(target: ModelTarget, overrides: ProviderOverrides): StreamingLlmProvider {
  if (target.kind === "openai") {
    const preset = target.preset === undefined ? undefined : openAiPreset(target.preset);
    return createOpenAiProvider({
      ...overrides.openai,
      baseUrl: target.baseUrl ?? "",
      model: target.model,
      headers: target.headers,
      ...(target.apiKey === undefined ? {} : { apiKey: target.apiKey }),
      ...(preset === undefined || target.preset === undefined
        ? {}
        : { quirks: preset.quirks, name: target.preset }),
    });
  }
  const options: SdkProviderOptions = {
    ...overrides.sdk,
    model: target.model,
    apiKey: target.apiKey ?? "",
    headers: target.headers,
    ...(target.baseUrl === undefined ? {} : { baseUrl: target.baseUrl }),
  };
  return target.kind === "anthropic" ? createAnthropicProvider(options) : createGoogleProvider(options);
}

function parseSetting<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  field: string,
  value: unknown,
): T | undefined {
  if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalid(field, parsed.error.issues[0]?.message ?? `${field} is invalid.`);
}

function isModelKind(kind: string): kind is ModelProviderKind {
  return kind === "openai" || kind === "anthropic" || kind === "google";
}

function invalid(field: string, message: string): SolError {
  return new SolError("invalid_input", message, { details: { fields: [{ field, message }] } });
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
