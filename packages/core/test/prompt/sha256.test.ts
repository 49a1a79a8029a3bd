import { createHash } from "node:crypto";
import { sha256Hex } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8ByteLength, utf8Encode } from "../../src/hash/sha256.js";

describe("sha256Hex (pure TypeScript)", () => {
  it("matches the FIPS 180-2 test vectors", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(sha256Hex("a".repeat(1_000_000))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("handles every padding boundary (lengths 0..130) like node:crypto", () => {
    for (let n = 0; n <= 130; n++) {
      const text = "x".repeat(n);
      expect(sha256Hex(text), `length ${n}`).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("equals node:crypto on arbitrary unicode strings and bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
      }),
    );
  });

  it("encodes UTF-8 like Buffer, lone surrogates as U+FFFD", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 100 }), (text) => {
        const expected = Buffer.from(text, "utf8");
        expect(Buffer.from(utf8Encode(text)).equals(expected)).toBe(true);
        expect(utf8ByteLength(text)).toBe(expected.length);
      }),
    );
  });
});
