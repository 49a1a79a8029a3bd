import type { LlmRequest, LlmRequestHints, LlmStreamChunk } from "@solserver/core";
import { ModelOutputEnvelope } from "@solserver/core";

/** A main-purpose JSON request for one user message. */
export function mainRequest(message: string, hints: Partial<LlmRequestHints> = {}): LlmRequest {
  return {
    purpose: "main",
    json: true,
    messages: [
      { role: "system", content: "You are Sol." },
      { role: "user", content: message },
    ],
    hints: { userMessage: message, ...hints },
  };
}

/** Parses a reply as output envelope v1, failing the test with the zod issues when it is not one. */
export function parseEnvelope(text: string): ModelOutputEnvelope {
  const parsed = ModelOutputEnvelope.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`not an envelope: ${JSON.stringify(parsed.error.issues)}`);
  return parsed.data;
}

/** Drains a stream into its chunks. */
export async function collect(stream: AsyncIterable<LlmStreamChunk>): Promise<LlmStreamChunk[]> {
  const chunks: LlmStreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Runs `fn` and returns what it threw (failing when it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** The JSON body of the `index`-th recorded upstream request, as an object. */
export function bodyAt(
  requests: readonly { readonly body: unknown }[],
  index: number,
): Record<string, unknown> {
  const body = requests[index]?.body;
  if (typeof body !== "object" || body === null) throw new Error(`no JSON body recorded at ${index}`);
  return body as Record<string, unknown>;
}
