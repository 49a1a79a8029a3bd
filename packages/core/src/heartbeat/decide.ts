import { z } from "zod";
import type { ModeDecision } from "../contracts/mode-decision.js";
import {
  type CompiledPattern,
  compilePattern,
  matchNormalized,
  normalizeForMatch,
} from "../driver-blocks/patterns.js";
import { SolError } from "../errors.js";

/** Why a checkpoint capsule is injected this turn (Checkpoint / Heartbeat Policy trigger set). */
export const CheckpointReason = z.enum([
  "router_flagged",
  "mode_changed",
  "high_rigor",
  "long_thread",
  "high_churn",
  "drift_flare",
  "user_reanchor",
  "explicit_command",
]);
export type CheckpointReason = z.infer<typeof CheckpointReason>;

/** Thresholds of the heartbeat. */
export const CheckpointPolicyOptions = z
  .object({
    /** From this many thread messages on, the thread counts as long. */
    longThreadMessages: z.number().int().positive(),
    /** In a long thread, a heartbeat checkpoint fires every this many messages (not every turn). */
    heartbeatEveryMessages: z.number().int().positive(),
    /** Tokens exchanged since the last checkpoint that count as high churn. */
    churnTokenThreshold: z.number().int().positive(),
    /** Domain flags that are high-rigor on their own (compared lower-case, "-"/space as "_"). */
    highRigorDomainFlags: z.array(z.string().min(1)).max(64),
  })
  .strict();
export type CheckpointPolicyOptions = z.infer<typeof CheckpointPolicyOptions>;

export const DEFAULT_CHECKPOINT_POLICY_OPTIONS: CheckpointPolicyOptions = Object.freeze({
  longThreadMessages: 30,
  heartbeatEveryMessages: 10,
  churnTokenThreshold: 8000,
  highRigorDomainFlags: Object.freeze([
    "finance",
    "legal",
    "architecture",
    "solos_governance",
    "governance",
    "medical",
  ]) as string[],
});

export interface CheckpointInput {
  readonly modeDecision: ModeDecision;
  /** modeLabel of the last assistant turn, when there was one. */
  readonly previousModeLabel?: string | undefined;
  /** Messages in the thread including the current user message. */
  readonly messageCount: number;
  /** Tokens exchanged since the last checkpoint (the churn estimate). */
  readonly tokenEstimate?: number | undefined;
  /** The previous turn's output failed the linter or was regenerated. */
  readonly driftFlare?: boolean | undefined;
  readonly message: string;
  /** The client sent an explicit checkpoint command. */
  readonly explicitCommand?: boolean | undefined;
}

export interface CheckpointDecision {
  readonly needed: boolean;
  readonly reasons: readonly CheckpointReason[];
}

export interface CheckpointPolicy {
  readonly options: CheckpointPolicyOptions;
  /** Decides whether this turn injects a checkpoint capsule, with every trigger that fired. */
  decide(input: CheckpointInput): CheckpointDecision;
}

const REANCHOR_PATTERNS: readonly CompiledPattern[] = [
  "what's/whats decided",
  "what is decided",
  "what's been decided/agreed",
  "what has been decided/agreed",
  "what have we decided/agreed",
  "what did we decide/agree",
  "what was decided/agreed",
  "what we decided/agreed",
  "re-anchor/reanchor",
  "replay",
  "recap",
  "where are/were we",
  "remind me what we",
  "summarize/summarise what we",
].flatMap((source) => {
  const compiled = compilePattern(source);
  return compiled.ok ? [compiled.value] : [];
});

const COMMAND = /^\/(?:checkpoint|anchor)(?:\s|$)/;

/** True when the user asks to re-anchor, replay or for what is decided. */
export function detectReanchorRequest(message: string): boolean {
  const text = normalizeForMatch(message);
  return REANCHOR_PATTERNS.some((pattern) => matchNormalized(text, pattern) !== null);
}

/** Creates a checkpoint policy; options are validated once (SolError `invalid_input`) and frozen. */
export function createCheckpointPolicy(options: Partial<CheckpointPolicyOptions> = {}): CheckpointPolicy {
  const parsed = CheckpointPolicyOptions.safeParse({ ...DEFAULT_CHECKPOINT_POLICY_OPTIONS, ...options });
  if (!parsed.success) {
    throw new SolError("invalid_input", `invalid checkpoint policy options: ${parsed.error.message}`, {
      details: parsed.error.issues,
    });
  }
  const settings = Object.freeze({
    ...parsed.data,
    highRigorDomainFlags: Object.freeze([...parsed.data.highRigorDomainFlags]) as string[],
  });
  const highRigorFlags = new Set(settings.highRigorDomainFlags.map(canon));

  const decide = (input: CheckpointInput): CheckpointDecision => {
    const reasons: CheckpointReason[] = [];
    const { modeDecision } = input;
    if (modeDecision.checkpointNeeded) reasons.push("router_flagged");
    if (
      input.previousModeLabel !== undefined &&
      canon(input.previousModeLabel) !== canon(modeDecision.modeLabel)
    ) {
      reasons.push("mode_changed");
    }
    if (
      modeDecision.rigorConfig.level === "high" ||
      modeDecision.domainFlags.some((f) => highRigorFlags.has(canon(f)))
    ) {
      reasons.push("high_rigor");
    }
    const count = input.messageCount;
    if (
      count >= settings.longThreadMessages &&
      (count - settings.longThreadMessages) % settings.heartbeatEveryMessages === 0
    ) {
      reasons.push("long_thread");
    }
    if (input.tokenEstimate !== undefined && input.tokenEstimate >= settings.churnTokenThreshold) {
      reasons.push("high_churn");
    }
    if (input.driftFlare === true) reasons.push("drift_flare");
    if (detectReanchorRequest(input.message)) reasons.push("user_reanchor");
    if (input.explicitCommand === true || COMMAND.test(input.message.trim().toLowerCase())) {
      reasons.push("explicit_command");
    }
    return { needed: reasons.length > 0, reasons };
  };

  return Object.freeze({ options: settings, decide });
}

const DEFAULT_POLICY = createCheckpointPolicy();

/** Decides checkpointNeeded with the default thresholds (see createCheckpointPolicy for others). */
export function decideCheckpointNeeded(input: CheckpointInput): CheckpointDecision {
  return DEFAULT_POLICY.decide(input);
}

function canon(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
