import type { AtlasInput } from "@solserver/core";

const DESTRUCTIVE_GATE = {
  inject_contexts: ["destructive-action-warning"],
  require_policy_check: true,
  require_confirmation: true,
};

/**
 * The atlas used when SOL_ATLAS is unset. It is deliberately lean because it runs on every chat
 * turn: two short "always" blocks at session start, one keyword warning, confirmation before
 * destructive or irreversible agent actions, and a procedure reminder for high-risk actions.
 */
export const DEFAULT_ATLAS: Readonly<AtlasInput> = Object.freeze<AtlasInput>({
  atlas_id: "solserver-default",
  name: "SolServer default atlas",
  version: "1",
  checkpoint_config: {
    session_start: { inject_contexts: ["essential-facts", "governance-rules"] },
    keyword_match: {
      keywords: { "delete|erase|wipe|destroy": ["destructive-action-warning"] },
      match_mode: "any",
    },
    action_pre: {
      actions: {
        "delete_*": DESTRUCTIVE_GATE,
        "drop_*": DESTRUCTIVE_GATE,
        "destroy_*": DESTRUCTIVE_GATE,
        "truncate_*": DESTRUCTIVE_GATE,
        "deploy*": { ...DESTRUCTIVE_GATE, inject_contexts: ["high-risk-procedures"] },
      },
    },
    risk_threshold: { enabled: true, min_tier: "high", inject_contexts: ["high-risk-procedures"] },
  },
  context_blocks: [
    {
      context_id: "essential-facts",
      name: "Essential facts",
      inject_mode: "always",
      content:
        "This session runs through SolServer. Actions with side effects are never carried out by the " +
        "assistant itself: they are proposed, and run only after the user approves them.",
    },
    {
      context_id: "governance-rules",
      name: "Governance rules",
      inject_mode: "always",
      content:
        "Never claim that something was sent, saved, scheduled or deleted unless a receipt confirms it. " +
        "Ask before anything destructive or hard to undo, and say plainly what it would change.",
    },
    {
      context_id: "destructive-action-warning",
      name: "Destructive action warning",
      inject_mode: "on_match",
      content:
        "Destructive actions (delete, drop, wipe, truncate) cannot be undone. Name exactly what would be " +
        "removed, prefer a reversible alternative, and wait for an explicit confirmation.",
    },
    {
      context_id: "high-risk-procedures",
      name: "High-risk procedures",
      inject_mode: "on_match",
      content:
        "High-risk action: check the target twice (environment, account, scope), make sure a rollback or " +
        "backup exists, and record why the action is needed before it runs.",
    },
  ],
});
