import type { SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { caught, collect, mainRequest } from "./helpers.js";
import { useUpstream } from "./upstream-fixture.js";

const KEY = "sk-live-0123456789abcdef";
const PROXY = "Basic cHJveHk6c2VjcmV0LXBhc3N3b3Jk";

const { state, provider } = useUpstream();
const withSecrets = () =>
  provider({ apiKey: KEY, headers: { "proxy-authorization": PROXY, "openai-project": "1" } });

describe("openai adapter: credentials never reach an error", () => {
  it("masks the API key an upstream quotes in its refusal", async () => {
    state.upstream.setScript([
      { kind: "status", status: 401, body: { error: { message: `Invalid bearer token: ${KEY}` } } },
    ]);
    const error = (await caught(() => withSecrets().complete(mainRequest("hi")))) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.message).toBe("openai request failed after 1 attempt: HTTP 401: Invalid bearer token: ***");
  });

  it("masks configured header values, in plain bodies and in stream error events", async () => {
    state.upstream.setScript([
      { kind: "raw", status: 407, body: `proxy refused ${PROXY} for ${KEY}` },
      {
        kind: "raw",
        headers: { "content-type": "text/event-stream" },
        body: `data: ${JSON.stringify({ error: { message: `token ${KEY} revoked` } })}\n\n`,
      },
    ]);
    const refused = (await caught(() => withSecrets().complete(mainRequest("hi")))) as SolError;
    expect(refused.message).not.toContain(PROXY);
    expect(refused.message).not.toContain(KEY);
    expect(refused.message).toContain("proxy refused *** for ***");
    const streamed = (await caught(() => collect(withSecrets().stream(mainRequest("hi"))))) as SolError;
    expect(streamed.message).toContain("stream error: token *** revoked");
  });
});
