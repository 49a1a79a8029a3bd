import { createHash } from "node:crypto";
import { sha256Hex as portableSha256Hex, type TraceEvent } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  GENESIS_HASH,
  hashTraceEvent,
  sha256Hex,
  verifyTraceChain,
} from "../../src/store/index.js";

/** Rebuilds an object with its keys inserted in reverse order at every depth. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, reverseKeys(item)]),
    );
  }
  return value;
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("follows JSON.stringify for undefined, non-finite numbers, -0 and toJSON", () => {
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN, -0], c: new Date(0) })).toBe(
      '{"b":[null,null,0],"c":"1970-01-01T00:00:00.000Z"}',
    );
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it("orders keys by UTF-16 code units", () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, "10": 4, "9": 5 })).toBe('{"10":4,"9":5,"Z":3,"z":2,"é":1}');
  });

  it("is independent of key insertion order and parses back to the same value (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(reverseKeys(value))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text).not.toMatch(/^\s|\s$/);
      }),
    );
  });
});

describe("trace hash chain", () => {
  const base: Omit<TraceEvent, "hash"> = {
    seq: 0,
    traceRunId: "run",
    transmissionId: null,
    actor: "solserver",
    phase: "route",
    status: "completed",
    metadata: { b: 2, a: 1 },
    ts: "2025-01-01T00:00:00.000Z",
    prevHash: GENESIS_HASH,
  };

  it("hashes sha256(prevHash + canonical JSON of the event without its hash)", () => {
    const expected = createHash("sha256")
      .update(
        `${GENESIS_HASH}{"actor":"solserver","metadata":{"a":1,"b":2},"phase":"route","prevHash":"${GENESIS_HASH}","seq":0,"status":"completed","traceRunId":"run","transmissionId":null,"ts":"2025-01-01T00:00:00.000Z"}`,
      )
      .digest("hex");
    expect(hashTraceEvent(base)).toBe(expected);
    expect(hashTraceEvent({ ...base, hash: "f".repeat(64) })).toBe(expected);
  });

  it("verifies whole runs and rejects broken ones", () => {
    const e0: TraceEvent = { ...base, hash: hashTraceEvent(base) };
    const u1 = { ...base, seq: 1, phase: "reply", prevHash: e0.hash };
    const e1: TraceEvent = { ...u1, hash: hashTraceEvent(u1) };
    expect(verifyTraceChain([])).toBe(true);
    expect(verifyTraceChain([e0, e1])).toBe(true);
    expect(verifyTraceChain([e1])).toBe(false);
    expect(verifyTraceChain([e0, { ...e1, traceRunId: "other" }])).toBe(false);
    expect(verifyTraceChain([{ ...e0, ts: "2025-01-01T00:00:01.000Z" }, e1])).toBe(false);
    expect(verifyTraceChain([e0, { ...e1, hash: e0.hash }])).toBe(false);
  });
});

describe("sha256Hex (node:crypto)", () => {
  it("equals core's portable SHA-256 on any text, so prompt hashes do not depend on the host (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(portableSha256Hex(text));
      }),
    );
  });
});
