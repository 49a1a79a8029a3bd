import type { SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { resolveOpenAiOptions } from "../../src/providers/openai/options.js";
import { caught, collect, mainRequest } from "./helpers.js";
import { useUpstream } from "./upstream-fixture.js";

const { state, provider } = useUpstream();
const LIMIT = 64 * 1024;
const huge = "x".repeat(1024 * 1024);

describe("openai adapter: an upstream answer is read up to maxResponseBytes", () => {
  it("reads 16 MiB by default", () => {
    expect(resolveOpenAiOptions({ baseUrl: "http://127.0.0.1:1/v1", model: "m" }).maxResponseBytes).toBe(
      16 * 1024 * 1024,
    );
  });

  it("fails a longer body at once, without retrying, on both transports", async () => {
    for (const fetch of [undefined, globalThis.fetch]) {
      state.upstream.setScript([
        { kind: "raw", headers: { "content-type": "application/json" }, body: `{"pad":"${huge}"}` },
        { kind: "raw", status: 500, body: huge },
      ]);
      const p = provider({ maxResponseBytes: LIMIT, maxRetries: 2, ...(fetch ? { fetch } : {}) });
      for (let i = 0; i < 2; i++) {
        const error = (await caught(() => p.complete(mainRequest("hi")))) as SolError;
        expect(error.code).toBe("provider_error");
        expect(error.message).toContain(`the upstream answer is larger than ${LIMIT} bytes`);
      }
      expect(state.sleeps).toEqual([]);
    }
  });

  it("fails a longer stream, even one that never ends a line", async () => {
    const chunk = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: huge } }] })}\n\n`;
    for (const body of [chunk, `data: ${huge}`]) {
      state.upstream.setScript([{ kind: "raw", headers: { "content-type": "text/event-stream" }, body }]);
      const error = (await caught(() =>
        collect(provider({ maxResponseBytes: LIMIT }).stream(mainRequest("hi"))),
      )) as SolError;
      expect(error.code).toBe("provider_error");
      expect(error.message).toContain(`the upstream answer is larger than ${LIMIT} bytes`);
    }
    expect(state.upstream.requestCount).toBe(2);
  });
});
