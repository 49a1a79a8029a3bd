import { createHash } from "node:crypto";

// One canonical JSON for the whole project (core's): trace hashes and action payload hashes agree.
export { canonicalJson } from "@solserver/core";

/** Lowercase hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
