import { z } from "zod";
import { OPENAI_PRESETS } from "./openai/presets.js";

/** Every `SOL_LLM` value (api.md §1). */
export const PROVIDER_KINDS = ["offline", "openai", "anthropic", "google"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Provider kinds that reach a language model (a fallback names one of them). */
export const MODEL_PROVIDER_KINDS = ["openai", "anthropic", "google"] as const;
export type ModelProviderKind = (typeof MODEL_PROVIDER_KINDS)[number];

const HeaderMap = z.record(
  z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "expected an HTTP header name"),
  z.string({ error: "expected a string header value" }),
);

/** JSON text, or (from `sol.config.json`) the value itself. */
function jsonSetting<T extends z.ZodType>(key: string, what: string, schema: T) {
  return z.union([z.string(), z.unknown()]).transform((raw, ctx): z.output<T> => {
    let value: unknown = raw;
    if (typeof raw === "string") {
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: "custom", message: `${key} must be ${what} in JSON (it is not valid JSON)` });
        return z.NEVER;
      }
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first && first.path.length > 0 ? ` at ${first.path.join(".")}` : "";
      ctx.addIssue({
        code: "custom",
        message: `${key} must be ${what}${where}: ${first?.message ?? "invalid"}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** `SOL_LLM_HEADERS`: a JSON object of extra request headers sent to the provider. */
export const ProviderHeadersSetting = jsonSetting(
  "SOL_LLM_HEADERS",
  "an object of header names to strings",
  HeaderMap,
);

/** One `SOL_LLM_FALLBACKS` entry: another provider and model to try after a retryable failure. */
export const FallbackEntry = z
  .object({
    provider: z.enum(MODEL_PROVIDER_KINDS),
    model: z.string().trim().min(1),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).optional(),
    headers: HeaderMap.optional(),
    preset: z.enum(OPENAI_PRESETS).optional(),
  })
  .strict();
export type FallbackEntry = z.infer<typeof FallbackEntry>;

/** `SOL_LLM_FALLBACKS`: a JSON array of FallbackEntry, tried in order. */
export const FallbacksSetting = jsonSetting(
  "SOL_LLM_FALLBACKS",
  "an array of {provider, model, baseUrl?, apiKey?, headers?, preset?}",
  z.array(FallbackEntry).max(8),
);
