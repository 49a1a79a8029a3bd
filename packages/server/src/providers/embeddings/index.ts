export { withEmbeddingCache } from "./cached-embeddings.js";
export { createOpenAiEmbeddings, type OpenAiEmbeddingsOptions } from "./openai-embeddings.js";
