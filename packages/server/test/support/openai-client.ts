import OpenAI from "openai";

/** The official OpenAI client pointed at a SolServer's facade; no client-side retries so tests see each answer. */
export function facadeClient(serverUrl: string, apiKey = "sk-test"): OpenAI {
  return new OpenAI({ baseURL: `${serverUrl}/v1`, apiKey, maxRetries: 0, timeout: 20_000 });
}

/** Runs `call` and returns what it threw (failing the test when it did not throw). */
export async function thrown(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}
