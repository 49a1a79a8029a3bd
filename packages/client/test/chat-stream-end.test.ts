import { describe, expect, it } from "vitest";
import type { ChatStreamEvent } from "../src/index.js";
import { SolClient } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// The `final` event carries the whole response: the turn is delivered once it arrived, whatever the
// connection does afterwards (a proxy resetting it, a server closing late).

const packet = { requestId: "req-1", threadId: "t", message: "hi" };

function streamingFetch(afterFinal: (controller: ReadableStreamDefaultController<Uint8Array>) => void) {
  const encoder = new TextEncoder();
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(`event: delta\ndata: ${JSON.stringify({ text: "Hi" })}\n\n`));
          controller.enqueue(
            encoder.encode(`event: final\ndata: ${JSON.stringify(fakeChatResponse(packet, 1))}\n\n`),
          );
          setTimeout(() => afterFinal(controller), 10);
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    );
}

async function collect(client: SolClient): Promise<ChatStreamEvent["type"][]> {
  const types: ChatStreamEvent["type"][] = [];
  for await (const event of client.chatStream(packet)) types.push(event.type);
  return types;
}

describe("SolClient.chatStream after the final event", () => {
  it("ends without an error when the connection is reset after final", async () => {
    const client = new SolClient({
      baseUrl: "http://sol.test",
      fetch: streamingFetch((c) => c.error(new TypeError("terminated"))),
    });
    expect(await collect(client)).toEqual(["delta", "final"]);
  });

  it("does not wait for a server that keeps the stream open after final", async () => {
    const client = new SolClient({
      baseUrl: "http://sol.test",
      timeoutMs: 200,
      fetch: streamingFetch(() => {}),
    });
    expect(await collect(client)).toEqual(["delta", "final"]);
  });
});
