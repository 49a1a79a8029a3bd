import { SolError } from "@solserver/core";
import { startScriptedUpstream } from "@solserver/harness";
import { describe, expect, it } from "vitest";
import { createProvider } from "../../src/index.js";
import { bodyAt, mainRequest, parseEnvelope } from "./helpers.js";

const thrown = (fn: () => unknown): SolError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof SolError) return error;
    throw error;
  }
  throw new Error("expected a SolError");
};

describe("createProvider", () => {
  it("defaults to the offline provider", async () => {
    const provider = createProvider({});
    expect(provider.name).toBe("offline");
    expect((await provider.complete(mainRequest("hi"))).offline).toBe(true);
    expect(createProvider({ SOL_LLM: "offline", SOL_LLM_BASE_URL: "ignored" }).name).toBe("offline");
  });

  it("names the missing settings for openai", () => {
    const both = thrown(() => createProvider({ SOL_LLM: "openai" }));
    expect(both.code).toBe("invalid_input");
    expect(both.details).toEqual({
      fields: [
        { field: "SOL_LLM_BASE_URL", message: "required when SOL_LLM is openai" },
        { field: "SOL_LLM_MODEL", message: "required when SOL_LLM is openai" },
      ],
    });
    const model = thrown(() =>
      createProvider({ SOL_LLM: "openai", SOL_LLM_BASE_URL: "http://x/v1", SOL_LLM_MODEL: " " }),
    );
    expect(model.message).toContain("SOL_LLM_MODEL");
    expect(model.message).not.toContain("SOL_LLM_BASE_URL");
  });

  it("rejects an unknown provider kind", () => {
    const error = thrown(() => createProvider({ SOL_LLM: "anthropic" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("SOL_LLM");
  });

  it("builds a working openai provider from the settings", async () => {
    const upstream = await startScriptedUpstream();
    try {
      const provider = createProvider(
        {
          SOL_LLM: "openai",
          SOL_LLM_BASE_URL: `${upstream.url}/`,
          SOL_LLM_MODEL: "gpt-test",
          SOL_LLM_API_KEY: "k",
        },
        { openai: { timeoutMs: 2_000 } },
      );
      expect(provider).toMatchObject({ name: "openai", model: "gpt-test" });
      const response = await provider.complete(mainRequest("via factory"));
      expect(parseEnvelope(response.text).assistant_text).toBe("Scripted reply: via factory");
      expect(upstream.requests[0]?.headers.authorization).toBe("Bearer k");
      expect(bodyAt(upstream.requests, 0).model).toBe("gpt-test");
    } finally {
      await upstream.close();
    }
  });
});
