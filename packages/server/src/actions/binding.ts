import { hashActionPayload, SolError } from "@solserver/core";
import type { StoredAction } from "../store/index.js";

/**
 * The approval is bound to the payload hash taken when the action was proposed. Before anything runs,
 * the stored kind and payload are hashed again; a row changed since then is refused (409) and the
 * payload returned here — the verified one — is the only one an executor ever receives.
 */
export function verifyBinding(action: StoredAction): Readonly<Record<string, unknown>> {
  const payload = action.payload;
  if (payload === null || hashActionPayload(action.kind, payload) !== action.payloadHash) {
    throw new SolError(
      "conflict",
      `Action ${action.actionId} no longer matches what was proposed (payload hash mismatch); it was not run.`,
      { details: { action_id: action.actionId, reason: "payload_hash_mismatch" } },
    );
  }
  return payload;
}
