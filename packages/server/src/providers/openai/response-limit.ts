/** Largest upstream answer read by default: far above any completion, far below a memory problem. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** An upstream answer longer than the adapter reads; the attempt fails for good (a retry would too). */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the upstream answer is larger than ${maxBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/** Counts the bytes of an answer as they arrive and throws once they pass `maxBytes`. */
export function byteBudget(maxBytes: number): (chunkBytes: number) => void {
  let seen = 0;
  return (chunkBytes) => {
    seen += chunkBytes;
    if (seen > maxBytes) throw new ResponseTooLargeError(maxBytes);
  };
}

/** Reads a body as text, at most `maxBytes` of it (a buffered body was already bounded by its transport). */
export async function readTextLimited(
  response: { readonly body: ReadableStream<Uint8Array> | null; text(): Promise<string> },
  maxBytes: number,
): Promise<string> {
  if (response.body === null) return response.text();
  const reader = response.body.getReader();
  const take = byteBudget(maxBytes);
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text + decoder.decode();
      take(value.byteLength);
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}
