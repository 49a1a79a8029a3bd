import { type PacketInput, type PinnedContextStore, SolError } from "@solserver/core";

/** A packet's pinned context, resolved to the exact version the client referenced. */
export interface ResolvedPinnedContext {
  readonly id: string;
  readonly version: number;
  readonly content: string;
}

function parseVersion(version: string | number): number | null {
  if (typeof version === "number") return version;
  return /^[1-9][0-9]{0,14}$/.test(version) ? Number(version) : null;
}

/**
 * Resolves `pinnedContextRef {id, version, hash}` before the turn claims anything: an unknown id or
 * version is a 404, and a version whose content hash is not the one the client holds is a 409 (the
 * client's copy and the server's disagree, so the turn must not run on either silently).
 */
export async function resolvePinnedContext(
  store: PinnedContextStore | undefined,
  tenantId: string,
  packet: PacketInput,
): Promise<ResolvedPinnedContext | undefined> {
  const ref = packet.pinnedContextRef;
  if (ref === undefined) return undefined;
  const version = parseVersion(ref.version);
  const stored = version === null || !store ? null : await store.get(tenantId, ref.id, version);
  if (stored === null) {
    throw new SolError("not_found", `No pinned context ${ref.id} version ${ref.version}.`, {
      details: { fields: [{ field: "pinnedContextRef", message: "unknown id or version" }] },
    });
  }
  if (stored.hash !== ref.hash.toLowerCase()) {
    throw new SolError(
      "conflict",
      `Pinned context ${ref.id} version ${stored.version} has another hash than the packet's.`,
      { details: { pinnedContextRef: { id: ref.id, version: stored.version, hash: stored.hash } } },
    );
  }
  return { id: stored.pinnedContextId, version: stored.version, content: stored.content };
}
