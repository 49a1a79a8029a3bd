import { describe, expect, it } from "vitest";
import type { FetchLike } from "../src/index.js";
import { MemoryQueueStore, SolClient, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// A 2xx answer that is not JSON at all did not come from SolServer (whose routes all answer JSON):
// a captive portal's login page or a proxy answered. Offline-first, that is a network failure the
// queue retries with the same requestId, not a final verdict on the message.

const portalPage: FetchLike = async () =>
  new Response("<html><body>Log in to the hotel Wi-Fi</body></html>", {
    status: 200,
    headers: { "content-type": "text/html" },
  });

describe("a 2xx response that is not JSON", () => {
  it("is a retryable network_error for SolClient", async () => {
    const client = new SolClient({ baseUrl: "http://sol.test", fetch: portalPage });
    await expect(client.chat({ threadId: "t", message: "m" })).rejects.toMatchObject({
      code: "network_error",
      retryable: true,
      status: 200,
    });
    await expect(client.healthz()).rejects.toMatchObject({ code: "network_error", retryable: true });
  });

  it("JSON that breaks the contract stays a final invalid_response", async () => {
    const client = new SolClient({
      baseUrl: "http://sol.test",
      fetch: async () => Response.json({ hello: "world" }),
    });
    await expect(client.chat({ threadId: "t", message: "m" })).rejects.toMatchObject({
      code: "invalid_response",
      retryable: false,
    });
  });

  it("a queued message behind a captive portal is sent once the portal lets go", async () => {
    let portal = true;
    const fetchFn: FetchLike = async (url, init) => {
      if (portal) return portalPage(url, init);
      const packet = JSON.parse(String(init.body));
      return Response.json(fakeChatResponse(packet, 1));
    };
    const queue = new TransmissionQueue({
      client: new SolClient({ baseUrl: "http://sol.test", fetch: fetchFn }),
      store: new MemoryQueueStore(),
      backoff: { baseMs: 1, maxMs: 2 },
      maxAttempts: 2,
    });
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "behind a portal" });
    await queue.drain();
    expect(queue.getTransmission(transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "network_error" },
    });
    expect(queue.getTransmission(transmissionId)?.deliveryAttempts).toHaveLength(2);
    portal = false;
    await queue.resume();
    await queue.drain();
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    await queue.stop();
  });
});
