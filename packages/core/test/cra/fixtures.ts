import type { AtlasInput } from "@solserver/core";

const block = (context_id: string, name: string, extra: Record<string, unknown> = {}) => ({
  context_id,
  name,
  content: `[${context_id}] ${name}`,
  ...extra,
});

/** The spec's atlas-level example, with the context blocks it references. */
export function specAtlas(overrides: { checkpoint_config?: Record<string, unknown> } = {}): AtlasInput {
  return {
    atlas_id: "test.spec-example",
    checkpoint_config: {
      session_start: { enabled: true, inject_contexts: ["essential-facts", "governance-rules"] },
      keyword_match: {
        enabled: true,
        keywords: {
          "deploy|production": ["deployment-checklist", "safety-rules"],
          "delete|remove": ["destructive-action-warning"],
        },
        match_mode: "any",
        case_sensitive: false,
      },
      action_pre: {
        enabled: true,
        actions: {
          write_file: { inject_contexts: ["file-writing-guidelines"], require_policy_check: false },
          execute_code: { inject_contexts: ["code-execution-safety"], require_policy_check: true },
          "delete_*": {
            inject_contexts: ["destructive-action-warning"],
            require_policy_check: true,
            require_confirmation: true,
          },
        },
      },
      risk_threshold: {
        enabled: true,
        min_tier: "high",
        inject_contexts: ["high-risk-procedures"],
        require_sync: true,
      },
      time_interval: { enabled: false, seconds: 300 },
      count_interval: { enabled: false, actions: 50 },
      ...overrides.checkpoint_config,
    },
    context_blocks: [
      block("essential-facts", "Essential Facts", { inject_mode: "always" }),
      block("governance-rules", "Governance Rules"),
      block("safety-first", "Safety First", { inject_mode: "always" }),
      block("deployment-checklist", "Deployment Checklist"),
      block("safety-rules", "Safety Rules"),
      block("destructive-action-warning", "Destructive Action Warning"),
      block("file-writing-guidelines", "File Writing Guidelines"),
      block("code-execution-safety", "Code Execution Safety"),
      block("high-risk-procedures", "High Risk Procedures"),
      block("vib3-geometry-system", "Geometry System", {
        inject_mode: "on_match",
        checkpoint_config: {
          keywords: ["geometry", "index", "formula", "base", "core"],
          actions: ["calculate_*", "set_geometry"],
          priority: 380,
        },
      }),
      block("secret-notes", "Secret Notes", { inject_mode: "never" }),
      block("style-guide", "Style Guide", { inject_mode: "on_request" }),
    ],
  };
}

/** The spec atlas with `once_per_session: true` on its keyword map and on the geometry block. */
export function oncePerSessionAtlas(): AtlasInput {
  const atlas = specAtlas();
  const config = atlas.checkpoint_config as Record<string, Record<string, unknown>>;
  config.keyword_match = { ...config.keyword_match, once_per_session: true };
  const blocks = (atlas.context_blocks ?? []) as Record<string, unknown>[];
  for (const b of blocks) {
    if (b.context_id === "vib3-geometry-system") {
      b.checkpoint_config = { ...(b.checkpoint_config as object), once_per_session: true };
    }
  }
  return atlas;
}
