import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SolClient, SolClientError } from "../../src/index.js";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy.js";
import { startTestServer, type TestServer, transmissionsFor } from "../support/real-server.js";

// The fault proxy itself, in front of the real server: which faults reach the server and what the
// client sees. One kept-alive connection carries requests that each meet their own fault.

let srv: TestServer;
let proxy: FaultProxy;
let client: SolClient;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
  proxy = await startFaultProxy({
    target: { host: "127.0.0.1", port: Number(new URL(srv.url).port) },
    delayMs: 20,
    resetAfterBytes: 600,
  });
  client = new SolClient({ baseUrl: proxy.url, timeoutMs: 1_000 });
});
afterAll(async () => {
  await proxy.close();
  await srv.close();
});

const chat = (requestId: string) =>
  client.chatWithMeta({ requestId, threadId: "fp", message: `m ${requestId}` });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as SolClientError,
  );

describe("fault proxy in front of SolServer", () => {
  it("injects each fault per request and tells which ones reached the server", async () => {
    proxy.setMode("pass");
    expect((await chat("fp-1")).replayed).toBe(false);

    proxy.setMode("refuse");
    expect(await failure(chat("fp-2"))).toMatchObject({ code: "network_error", retryable: true });
    expect(await transmissionsFor(srv, "fp-2")).toBe(0);

    proxy.setMode("unavailable");
    expect(await failure(chat("fp-3"))).toMatchObject({ code: "unavailable", status: 503, retryable: true });
    expect(await transmissionsFor(srv, "fp-3")).toBe(0);

    proxy.setMode("reset");
    const cut = await failure(chat("fp-4"));
    expect(cut).toBeInstanceOf(SolClientError);
    expect(cut).toMatchObject({ code: "network_error", retryable: true });
    expect(await transmissionsFor(srv, "fp-4")).toBe(1);

    proxy.setMode("hold");
    expect(await failure(chat("fp-5"))).toMatchObject({ code: "timeout", retryable: true });
    expect(await transmissionsFor(srv, "fp-5")).toBe(1);

    proxy.setMode("delay");
    expect(await chat("fp-4")).toMatchObject({ replayed: true });

    // Offline: the kept-alive connection is dropped (the first try may still pick it up and see it
    // closed); once it is gone, connecting is refused by the OS.
    await proxy.setOffline(true);
    expect(await failure(chat("fp-6"))).toMatchObject({ code: "network_error", retryable: true });
    const refused = await failure(chat("fp-6"));
    expect(refused).toMatchObject({ code: "network_error", retryable: true });
    expect((refused?.cause as { cause?: { code?: string } })?.cause?.code).toBe("ECONNREFUSED");
    expect(await transmissionsFor(srv, "fp-6")).toBe(0);
    await proxy.setOffline(false);
    proxy.setMode("pass");
    expect(await chat("fp-5")).toMatchObject({ replayed: true });
    expect(proxy.stats).toMatchObject({ refuse: 1, unavailable: 1, reset: 1, hold: 1, delay: 1 });
  });
});
