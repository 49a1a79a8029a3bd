import { hashActionPayload, sha256Hex } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalPayloadJson } from "../../src/permission-gate/payload-hash.js";

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, i) => shuffleKeys(item, seed + i));
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, i) => entries[(i + seed) % entries.length] as [string, unknown]);
  return Object.fromEntries(rotated.map(([k, v]) => [k, shuffleKeys(v, seed + 1)]));
}

describe("action payload hash", () => {
  it("sorts keys at every depth and drops what JSON drops", () => {
    expect(canonicalPayloadJson({ b: 1, a: { d: [1, undefined, "x"], c: null }, e: undefined })).toBe(
      '{"a":{"c":null,"d":[1,null,"x"]},"b":1}',
    );
    expect(canonicalPayloadJson({ n: Number.NaN, t: new Date(0) })).toBe(
      '{"n":null,"t":"1970-01-01T00:00:00.000Z"}',
    );
  });

  it("binds the kind and the payload", () => {
    const payload = { title: "Call the bank", due: "2026-01-02T09:00:00.000Z" };
    const hash = hashActionPayload("create_reminder", payload);
    expect(hash).toBe(sha256Hex(canonicalPayloadJson({ action_kind: "create_reminder", payload })));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashActionPayload("webhook", payload)).not.toBe(hash);
    expect(hashActionPayload("create_reminder", { ...payload, title: "Call the bank!" })).not.toBe(hash);
  });

  it("refuses values that are not JSON data", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalPayloadJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalPayloadJson({ n: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(canonicalPayloadJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it("property: equal data gives the same hash whatever the key order, and the text parses back", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.nat(10), (payload, seed) => {
        const shuffled = shuffleKeys(payload, seed) as Record<string, unknown>;
        expect(hashActionPayload("k", shuffled)).toBe(hashActionPayload("k", payload));
        expect(JSON.parse(canonicalPayloadJson(payload))).toEqual(JSON.parse(JSON.stringify(payload)));
      }),
    );
  });
});
