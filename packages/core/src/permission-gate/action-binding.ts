import { canonicalPayloadJson } from "./payload-hash.js";

/** What an approval is bound to: the action's tenant, id, kind and payload. */
export interface ActionBindingFields {
  readonly tenantId: string;
  readonly actionId: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** Version of {@link actionBindingInput}'s text; a new layout gets a new number so old MACs stay readable. */
export const ACTION_BINDING_VERSION = 1;

/**
 * The text an approval's HMAC covers: canonical JSON of tenant, action id, kind and payload. Naming
 * the tenant and the action id means a MAC copied onto another row (or another tenant's) does not
 * verify there, unlike the plain payload hash, which any writer can recompute.
 */
export function actionBindingInput(fields: ActionBindingFields): string {
  return canonicalPayloadJson({
    action_id: fields.actionId,
    action_kind: fields.kind,
    payload: fields.payload,
    tenant_id: fields.tenantId,
    v: ACTION_BINDING_VERSION,
  });
}
