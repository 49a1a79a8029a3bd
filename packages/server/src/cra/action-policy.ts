import type { ActionPolicy } from "../actions/index.js";
import type { CheckpointService } from "./checkpoint-service.js";
import { CHECKPOINT_CONFIRMATION_KIND } from "./gate-bridge.js";
import { threadSessionId } from "./session-ids.js";

/**
 * The permission gate's policy hook backed by CRA: every run of the server's own executors is an
 * `action_pre` evaluation in its thread's session (risk tier, atlas policies; the user's Approve is
 * the confirmation) and an `action_post` after. A checkpoint confirmation is CRA's own question to the
 * user, so it is not checked again. A thread id that is already a session (confirmations) is used as is.
 */
export function createCraActionPolicy(
  checkpoints: Pick<CheckpointService, "checkServerAction">,
): ActionPolicy {
  const sessionOf = (threadId: string) => threadSessionId(threadId);
  const actionOf = (kind: string, params: Readonly<Record<string, unknown>>) => ({
    type: kind,
    ...(Object.keys(params).length > 0 ? { params: { ...params } } : {}),
  });
  return {
    async before(ctx) {
      if (ctx.kind === CHECKPOINT_CONFIRMATION_KIND) return { allowed: true };
      return checkpoints.checkServerAction({
        tenantId: ctx.tenantId,
        sessionId: sessionOf(ctx.threadId),
        stage: "pre",
        action: actionOf(ctx.kind, ctx.params),
      });
    },
    async after(ctx) {
      if (ctx.kind === CHECKPOINT_CONFIRMATION_KIND) return;
      await checkpoints.checkServerAction({
        tenantId: ctx.tenantId,
        sessionId: sessionOf(ctx.threadId),
        stage: "post",
        action: actionOf(ctx.kind, { ...ctx.params, outcome: ctx.outcome.status }),
      });
    },
  };
}
