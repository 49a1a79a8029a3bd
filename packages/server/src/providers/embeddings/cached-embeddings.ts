import type { EmbeddingProvider } from "@solserver/core";

/**
 * Remembers vectors by text (least recently used out first), so the summaries a tenant's turns keep
 * retrieving are embedded once rather than on every turn.
 */
export function withEmbeddingCache(provider: EmbeddingProvider, maxEntries = 10_000): EmbeddingProvider {
  const cache = new Map<string, readonly number[]>();
  const remember = (text: string, vector: readonly number[]) => {
    cache.delete(text);
    cache.set(text, vector);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
  };
  return {
    name: provider.name,
    model: provider.model,
    async embed(texts, signal) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length > 0) {
        const vectors = await provider.embed(missing, signal);
        missing.forEach((text, i) => {
          const vector = vectors[i];
          if (vector !== undefined) remember(text, vector);
        });
      }
      return texts.map((text) => {
        const vector = cache.get(text) ?? [];
        remember(text, vector);
        return vector;
      });
    },
  };
}
