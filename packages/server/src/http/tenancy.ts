import { createHash, timingSafeEqual } from "node:crypto";
import { SolError } from "@solserver/core";

export const DEFAULT_TENANT = "default";

/** Who a request is: its tenant and, with auth on, the API key it used (null when auth is off). */
export interface Caller {
  readonly tenantId: string;
  readonly apiKey: string | null;
}

/** Resolves the caller of a request from its `Authorization` header. */
export type CallerResolver = (authorization: string | undefined) => Caller;

const digest = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest();

/**
 * Maps `Authorization: Bearer <key>` to its tenant and key; with no keys configured every caller is
 * tenant `default` with no key. The key is kept because the facade's default thread is one per key.
 *
 * The presented key is compared with every configured key, each as a SHA-256 digest with
 * `timingSafeEqual` and without stopping at a match, so how long a check takes says nothing about
 * how much of a key was right, nor which entry matched (a hash-map lookup compares the strings).
 */
export function createCallerResolver(apiKeys: ReadonlyMap<string, string> | undefined): CallerResolver {
  if (!apiKeys || apiKeys.size === 0) return () => ({ tenantId: DEFAULT_TENANT, apiKey: null });
  const entries = [...apiKeys].map(([key, tenantId]) => ({ digest: digest(key), key, tenantId }));
  return (authorization) => {
    const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
    const key = match?.[1]?.trim();
    if (!key) throw new SolError("unauthorized", "Send Authorization: Bearer <api key>.");
    const presented = digest(key);
    let found: (typeof entries)[number] | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(entry.digest, presented) && found === undefined) found = entry;
    }
    if (found === undefined) throw new SolError("unauthorized", "The API key is not valid.");
    return { tenantId: found.tenantId, apiKey: found.key };
  };
}
