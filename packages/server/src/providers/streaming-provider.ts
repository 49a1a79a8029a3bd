import type { LlmProvider, LlmRequest, LlmStreamChunk } from "@solserver/core";

/** A provider whose `stream` is always present (both adapters here stream). */
export type StreamingLlmProvider = LlmProvider & {
  stream(request: LlmRequest): AsyncIterable<LlmStreamChunk>;
};
