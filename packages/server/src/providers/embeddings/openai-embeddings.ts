import { type EmbeddingProvider, SolError } from "@solserver/core";

/** An OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp, LM Studio...). */
export interface OpenAiEmbeddingsOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Per call; retrieval falls back to lexical ranking when it runs out (default 2000 ms). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

interface EmbeddingsBody {
  readonly data?: readonly { readonly index?: number; readonly embedding?: unknown }[];
}

function vectorsOf(body: EmbeddingsBody, count: number): number[][] {
  const rows = body.data ?? [];
  const out: number[][] = new Array(count);
  rows.forEach((row, position) => {
    const index = typeof row.index === "number" ? row.index : position;
    const vector = row.embedding;
    if (Array.isArray(vector) && vector.every((x) => typeof x === "number")) out[index] = vector;
  });
  if (out.length !== count || out.some((v) => v === undefined) || rows.length !== count) {
    throw new SolError(
      "provider_error",
      `The embeddings endpoint answered ${rows.length} vectors for ${count} texts.`,
    );
  }
  return out;
}

/** Embeddings over the OpenAI wire format; one request per call, vectors returned in input order. */
export function createOpenAiEmbeddings(options: OpenAiEmbeddingsOptions): EmbeddingProvider {
  const settings = Object.freeze({ timeoutMs: 2000, fetch: globalThis.fetch, ...options });
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/embeddings`;
  return {
    name: "openai-embeddings",
    model: settings.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      let response: Response;
      try {
        response = await settings.fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
            ...settings.headers,
          },
          body: JSON.stringify({ model: settings.model, input: texts }),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
      } catch (error) {
        throw new SolError("provider_error", "The embeddings endpoint could not be reached.", {
          cause: error,
        });
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new SolError("provider_error", `The embeddings endpoint answered HTTP ${response.status}.`, {
          details: { status: response.status },
        });
      }
      return vectorsOf((await response.json()) as EmbeddingsBody, texts.length);
    },
  };
}
