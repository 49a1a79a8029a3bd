import type { AbortSignalLike } from "./llm-provider.js";

/** The embedding port: one vector per text, in order. Optional; retrieval is lexical without it. */
export interface EmbeddingProvider {
  readonly name: string;
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignalLike): Promise<readonly (readonly number[])[]>;
}
