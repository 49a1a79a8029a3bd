import type { ActionExecutor } from "@solserver/core";
import type { ExecutionOutcome } from "../store/index.js";

/** One of the server's own actions, as its policy check sees it. */
export interface ActionPolicyContext {
  readonly tenantId: string;
  readonly threadId: string;
  readonly actionId: string;
  readonly kind: string;
  /** What `action_pre` policies match on (see ActionExecutor.policyParams). */
  readonly params: Readonly<Record<string, unknown>>;
}

/** The permission gate's policy hook: CRA's `action_pre` before an approved run, `action_post` after. */
export interface ActionPolicy {
  before(ctx: ActionPolicyContext): Promise<{ allowed: true } | { allowed: false; reason: string }>;
  after(ctx: ActionPolicyContext & { readonly outcome: ExecutionOutcome }): Promise<void>;
}

const MAX_PARAM_TEXT = 2000;

/** The payload's top-level strings (clipped), numbers and booleans: what a policy may compare. */
function plainParams(payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === "string") out[key] = value.slice(0, MAX_PARAM_TEXT);
    else if (typeof value === "number" || typeof value === "boolean") out[key] = value;
  }
  return out;
}

/** The params a policy sees for one payload: the executor's own view, else the plain fields. */
export function policyParamsOf(
  executor: ActionExecutor | undefined,
  payload: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  try {
    return executor?.policyParams?.(payload) ?? plainParams(payload);
  } catch {
    return plainParams(payload);
  }
}
