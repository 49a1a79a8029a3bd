import { type ScriptedUpstream, startScriptedUpstream } from "@solserver/harness";
import { afterEach, beforeEach } from "vitest";
import { createOpenAiProvider, type OpenAiProviderOptions } from "../../src/index.js";

/** A fresh scripted upstream per test plus a provider factory that never really sleeps. */
export function useUpstream() {
  const state: { upstream: ScriptedUpstream; sleeps: number[] } = {
    upstream: undefined as unknown as ScriptedUpstream,
    sleeps: [],
  };
  beforeEach(async () => {
    state.upstream = await startScriptedUpstream();
    state.sleeps = [];
  });
  afterEach(async () => {
    await state.upstream.close();
  });
  const provider = (options: Partial<OpenAiProviderOptions> = {}) =>
    createOpenAiProvider({
      baseUrl: state.upstream.url,
      model: "test-model",
      apiKey: "sk-test",
      timeoutMs: 2_000,
      backoff: { baseMs: 100, maxMs: 1_000 },
      random: () => 0,
      sleep: async (ms) => {
        state.sleeps.push(ms);
      },
      ...options,
    });
  return { state, provider };
}
