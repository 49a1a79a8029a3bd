import type { ChatBodyQuirks } from "./chat-body.js";

/** Local OpenAI-compatible servers with a documented preset (`SOL_LLM_PRESET`). */
export const OPENAI_PRESETS = ["ollama", "vllm", "llamacpp", "lmstudio"] as const;
export type OpenAiPreset = (typeof OPENAI_PRESETS)[number];

export interface OpenAiPresetSettings {
  /** The server's usual address when run locally with its defaults. */
  readonly baseUrl: string;
  readonly quirks: ChatBodyQuirks;
}

/**
 * What each server is known to accept. Ollama's OpenAI API rejects `response_format`, so the envelope
 * is asked for by the prompt alone; llama.cpp's server takes JSON mode only; vLLM and LM Studio take
 * a JSON schema. Only vLLM is asked for usage on streams (`stream_options.include_usage`); without it
 * a streamed reply has no token counts.
 */
const PRESETS: Readonly<Record<OpenAiPreset, OpenAiPresetSettings>> = Object.freeze({
  ollama: { baseUrl: "http://127.0.0.1:11434/v1", quirks: { structuredOutput: "none", streamUsage: false } },
  vllm: {
    baseUrl: "http://127.0.0.1:8000/v1",
    quirks: { structuredOutput: "json_schema", streamUsage: true },
  },
  llamacpp: {
    baseUrl: "http://127.0.0.1:8080/v1",
    quirks: { structuredOutput: "json_object", streamUsage: false },
  },
  lmstudio: {
    baseUrl: "http://127.0.0.1:1234/v1",
    quirks: { structuredOutput: "json_schema", streamUsage: false },
  },
});

/** The settings of a named preset. */
export function openAiPreset(name: OpenAiPreset): OpenAiPresetSettings {
  return PRESETS[name];
}
