import { actionBindingInput, hashActionPayload, SolError } from "@solserver/core";
import type { Keyring } from "../integrity/index.js";
import type { StoredAction } from "../store/index.js";

/** The MAC an approval of this action is bound to (stored with the action when it is proposed). */
export function signBinding(
  keyring: Keyring,
  action: Pick<StoredAction, "tenantId" | "actionId" | "kind"> & {
    readonly payload: Readonly<Record<string, unknown>>;
  },
): { readonly bindingKeyId: string; readonly bindingMac: string } {
  const { keyId, mac } = keyring.sign(actionBindingInput(action));
  return { bindingKeyId: keyId, bindingMac: mac };
}

function refused(action: StoredAction, reason: string, why: string): SolError {
  return new SolError("conflict", `Action ${action.actionId} ${why}; it was not run.`, {
    details: { action_id: action.actionId, reason },
  });
}

/**
 * The approval is bound to an HMAC, under a server key, of the tenant, action id, kind and payload
 * taken when the action was proposed. Before anything runs the stored row is checked against it: a
 * row changed since then (even with its plain payload hash recomputed), a row from before keyed
 * bindings, or one whose key the server no longer holds is refused (409), and the payload returned
 * here — the verified one — is the only one an executor ever receives.
 */
export function verifyBinding(action: StoredAction, keyring: Keyring): Readonly<Record<string, unknown>> {
  const payload = action.payload;
  if (payload === null || hashActionPayload(action.kind, payload) !== action.payloadHash) {
    throw refused(
      action,
      "payload_hash_mismatch",
      "no longer matches what was proposed (payload hash mismatch)",
    );
  }
  if (action.bindingKeyId === null || action.bindingMac === null) {
    throw refused(
      action,
      "binding_unkeyed",
      "was proposed before approvals were bound to a server key, so it cannot be verified; ask for it again",
    );
  }
  const check = keyring.verify(
    action.bindingKeyId,
    actionBindingInput({ ...action, payload }),
    action.bindingMac,
  );
  if (check === "unknown_key") {
    throw refused(
      action,
      "binding_key_unknown",
      "was bound to a server key this server no longer holds (rotated out of SOL_ACTION_SECRETS_PREVIOUS, or a restart without SOL_ACTION_SECRET); ask for it again",
    );
  }
  if (check === "mismatch") {
    throw refused(
      action,
      "payload_hash_mismatch",
      "no longer matches what was proposed (its binding does not verify)",
    );
  }
  return payload;
}
