import * as crypto from "node:crypto";

// One canonical JSON for the whole project (core's): trace hashes and action payload hashes agree.
export { canonicalJson } from "@solserver/core";

// crypto.hash (Node >= 20.12) is a one-shot digest without a Hash object: about half the cost for the
// short texts hashed here (a dozen trace events per turn). Older Node falls back to createHash.
const oneShot = (crypto as { hash?: typeof crypto.hash }).hash;

/** Lowercase hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  if (oneShot !== undefined) return oneShot("sha256", text, "hex");
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}
