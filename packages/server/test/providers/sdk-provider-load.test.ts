import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { resolveSdkOptions } from "../../src/providers/ai-sdk/sdk-options.js";
import { createSdkProvider } from "../../src/providers/ai-sdk/sdk-provider.js";
import { caught, mainRequest } from "./helpers.js";

// The vendor's SDK is loaded on the provider's first call (lazy-sdk-import.test.ts checks the package
// is not imported before). A load that fails is a typed error on every call, not a raw one.

describe("createSdkProvider's model loader", () => {
  it("fails each call with SolError internal naming the provider when the SDK cannot be loaded, loading once", async () => {
    let loads = 0;
    const provider = createSdkProvider({
      name: "vendor",
      model: async () => {
        loads += 1;
        throw new Error("Cannot find package '@ai-sdk/vendor'");
      },
      options: resolveSdkOptions({ model: "m", apiKey: "k", maxRetries: 0 }),
      structured: () => ({}),
    });
    for (const call of [
      () => provider.complete(mainRequest("hello")),
      async () => {
        for await (const _ of provider.stream(mainRequest("hello"))) break;
      },
    ]) {
      const error = await caught(call);
      expect(isSolError(error) && error.code).toBe("internal");
      expect((error as Error).message).toContain("vendor");
      expect(((error as Error).cause as Error).message).toContain("@ai-sdk/vendor");
    }
    expect(loads).toBe(1);
  });
});
