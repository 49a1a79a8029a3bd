import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { SolError } from "@solserver/core";

/** The least secret length accepted (bytes of its UTF-8 text): HMAC-SHA256's own key size. */
export const MIN_SECRET_BYTES = 32;

/** What {@link Keyring.verify} found. `unknown_key`: no secret held has that id (rotated out, or lost). */
export type MacCheck = "ok" | "unknown_key" | "mismatch";

/**
 * The server's HMAC keys: the current one signs, the current and previous ones verify. A MAC is
 * stored with the id of the key that made it, so rotation never has to try every key.
 */
export interface Keyring {
  readonly currentKeyId: string;
  /** HMAC-SHA256 (hex) of `text` under the current key, with that key's id. */
  sign(text: string): { readonly keyId: string; readonly mac: string };
  verify(keyId: string, text: string, mac: string): MacCheck;
}

/**
 * A key's public id: 16 hex of a SHA-256 of the secret under a fixed label. It names the key in
 * stored rows without letting anyone who reads them test guesses faster than against the MAC itself.
 */
export function keyIdOf(secret: string): string {
  return createHash("sha256")
    .update("solserver-key-id\u0000")
    .update(secret, "utf8")
    .digest("hex")
    .slice(0, 16);
}

function macOf(secret: string, text: string): string {
  return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

/** Builds the keyring from the current secret and the previous ones still accepted (rotation). */
export function createKeyring(current: string, previous: readonly string[] = []): Keyring {
  for (const secret of [current, ...previous]) {
    if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) {
      // Never echo the secret: only its length.
      throw new SolError("invalid_input", `An action secret must be at least ${MIN_SECRET_BYTES} bytes.`);
    }
  }
  const secrets = new Map<string, string>();
  for (const secret of [current, ...previous]) secrets.set(keyIdOf(secret), secret);
  const currentKeyId = keyIdOf(current);
  return Object.freeze({
    currentKeyId,
    sign: (text: string) => ({ keyId: currentKeyId, mac: macOf(current, text) }),
    verify(keyId: string, text: string, mac: string): MacCheck {
      const secret = secrets.get(keyId);
      if (secret === undefined) return "unknown_key";
      const expected = Buffer.from(macOf(secret, text), "hex");
      const given = Buffer.from(mac, "hex");
      // Compared in constant time; a stored MAC of the wrong length is simply not it.
      return given.length === expected.length && timingSafeEqual(given, expected) ? "ok" : "mismatch";
    },
  });
}
