import {
  actionKeyOf,
  type CheckpointAction,
  type CheckpointEngine,
  type CheckpointEvaluation,
  type CheckpointSessionState,
  createAtlasPolicyChecker,
  detectRiskTier,
} from "@solserver/core";

/** What `action_pre` says about one of the server's own actions, already approved by the user. */
export type ServerActionVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: string; readonly policyId?: string };

/**
 * Evaluates `action_pre` for an action the user approved through the permission gate. The approval
 * is the confirmation a `require_confirmation` gate asks for, so it is granted for this one action
 * first; a policy denial (or any other blocking checkpoint) still stops it. Nothing of the grant or of
 * a confirmation request survives in the session: the gate is where the user decides, not CRA.
 */
export async function evaluateApprovedAction(
  engine: CheckpointEngine,
  state: CheckpointSessionState,
  action: CheckpointAction,
): Promise<{ evaluation: CheckpointEvaluation; verdict: ServerActionVerdict }> {
  const key = actionKeyOf(action);
  const before = [...state.pendingConfirmations];
  if (!state.grantedConfirmations.includes(key)) state.grantedConfirmations.push(key);
  const evaluated = await engine.evaluate(state, { type: "action_pre", action });
  const evaluation = await withAtlasPolicy(engine, state.sessionId, action, evaluated);
  if (evaluation.continue) return { evaluation, verdict: { allowed: true } };
  state.grantedConfirmations = state.grantedConfirmations.filter((k) => k !== key);
  state.pendingConfirmations = before;
  const policyId = evaluation.policyDecision?.policy_id;
  const { requireConfirmation: _asked, ...blocked } = evaluation;
  return {
    evaluation: blocked,
    verdict: {
      allowed: false,
      reason: evaluation.blockReason ?? "a checkpoint blocked the action",
      ...(policyId === undefined ? {} : { policyId }),
    },
  };
}

/**
 * The atlas's policies always apply to the server's own actions, even where the atlas's `action_pre`
 * config does not ask for a policy check (it is written for agents' actions). A policy that asks for
 * approval is satisfied by the user's Approve; a denial blocks.
 */
async function withAtlasPolicy(
  engine: CheckpointEngine,
  sessionId: string,
  action: CheckpointAction,
  evaluation: CheckpointEvaluation,
): Promise<CheckpointEvaluation> {
  if (!evaluation.continue || evaluation.policyDecision !== undefined) return evaluation;
  const riskTier = detectRiskTier(action, engine.atlas.actions);
  const decision = await createAtlasPolicyChecker(engine.atlas)(action, { riskTier, sessionId });
  if (decision.decision !== "denied") return { ...evaluation, policyDecision: decision };
  return { ...evaluation, continue: false, blockReason: decision.reason, policyDecision: decision };
}
