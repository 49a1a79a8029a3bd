import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createCallerResolver } from "../../src/http/tenancy.js";

const keys = new Map([
  ["key-acme-0123456789", "acme"],
  ["key-beta-0123456789", "beta"],
  ["key-acme-second", "acme"],
]);

function refusal(resolve: (authorization: string | undefined) => unknown, authorization?: string): string {
  try {
    resolve(authorization);
  } catch (error) {
    if (isSolError(error) && error.code === "unauthorized") return error.message;
    throw error;
  }
  throw new Error(`accepted ${authorization}`);
}

describe("API keys are checked by digest against every configured key", () => {
  const resolve = createCallerResolver(keys);

  it("names the tenant and key of each configured key", () => {
    expect(resolve("Bearer key-acme-0123456789")).toEqual({
      tenantId: "acme",
      apiKey: "key-acme-0123456789",
    });
    expect(resolve("bearer   key-beta-0123456789 ")).toEqual({
      tenantId: "beta",
      apiKey: "key-beta-0123456789",
    });
    expect(resolve("Bearer key-acme-second")).toEqual({ tenantId: "acme", apiKey: "key-acme-second" });
  });

  it("refuses prefixes, extensions, other cases and missing keys alike", () => {
    for (const wrong of ["key-acme-012345678", "key-acme-01234567890", "KEY-ACME-0123456789", "key-beta"]) {
      expect(refusal(resolve, `Bearer ${wrong}`)).toBe("The API key is not valid.");
    }
    for (const missing of [undefined, "", "Bearer", "Bearer   ", "Basic key-acme-0123456789"]) {
      expect(refusal(resolve, missing)).toBe("Send Authorization: Bearer <api key>.");
    }
  });

  it("is one tenant without keys", () => {
    expect(createCallerResolver(undefined)("Bearer anything")).toEqual({ tenantId: "default", apiKey: null });
    expect(createCallerResolver(new Map())(undefined)).toEqual({ tenantId: "default", apiKey: null });
  });
});
