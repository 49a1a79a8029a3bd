import type { ThreadMementoV02 } from "../contracts/memento.js";
import type { ModeDecision } from "../contracts/mode-decision.js";
import type { Budgets } from "../contracts/packet.js";
import type { AppliedBlock, CompiledPolicy } from "../driver-blocks/policy-types.js";
import { activeRigorRules } from "../driver-blocks/rigor-rules.js";
import { longTextJson } from "../hash/long-text-json.js";
import { sha256Hex } from "../hash/sha256.js";
import type { LlmMessage, LlmRole } from "../ports/llm-provider.js";
import { ENVELOPE_INSTRUCTIONS, ENVELOPE_VERSION } from "./envelope-instructions.js";
import type { MountedLaw } from "./law-registry.js";
import { renderMementoSummary } from "./memento-summary.js";
import { type PromptModuleRef, promptModuleRef, selectPromptModules } from "./profile-registry.js";

/** Messages of the bounded conversation window when the caller does not say. */
export const DEFAULT_WINDOW_SIZE = 12;

/** One earlier message of the thread. */
export interface WindowMessage {
  readonly role: LlmRole;
  readonly content: string;
  /** See LlmMessage.providerMessage: passed to the provider in place of the text rendering. */
  readonly providerMessage?: Readonly<Record<string, unknown>>;
  /**
   * True when the message only makes sense right after the one before it (a tool result after the
   * call it answers): a window never starts with one, so trimming cannot leave a result without its call.
   */
  readonly continues?: boolean;
}

export interface AssemblePromptInput {
  readonly law: MountedLaw;
  /** The active profile's other modules: those named by modeDecision.clusterIds go into the prompt. */
  readonly modules?: readonly MountedLaw[] | undefined;
  /** The active profile's id, for the trace. */
  readonly profileId?: string | undefined;
  readonly modeDecision: ModeDecision;
  readonly budgets?: Budgets | undefined;
  /** Included only when modeDecision.checkpointNeeded is true. */
  readonly checkpointCapsule?: string | undefined;
  readonly policy: CompiledPolicy;
  readonly memento?: ThreadMementoV02 | null | undefined;
  /** Retrieved summaries (explicit memories, other threads' mementos), best first: summaries only. */
  readonly retrieval?: readonly string[] | undefined;
  /** Checkpoint contexts and other summaries injected by the caller, in order. */
  readonly injectedContext?: readonly string[] | undefined;
  /** Earlier thread messages, oldest first; system entries are dropped (only the server writes system text). */
  readonly window: readonly WindowMessage[];
  readonly windowSize?: number | undefined;
  readonly userMessage: string;
  /** Messages after the user message, in order: a tool call the model made this turn and its results. */
  readonly turnTail?: readonly WindowMessage[] | undefined;
  /** Targeted fixes for the one regeneration (buildPatchDirectives). */
  readonly patchDirectives?: readonly string[] | undefined;
  /**
   * Lowercase hex SHA-256 of a UTF-8 string, for the prompt hash. Defaults to core's portable one;
   * a host may pass a native one (same output, much less CPU on a prompt of several KB).
   */
  readonly sha256Hex?: ((text: string) => string) | undefined;
}

/** The assembled main-call prompt plus what a trace needs to reproduce it. */
export interface AssembledPrompt {
  readonly messages: readonly LlmMessage[];
  readonly lawId: string;
  readonly lawVersion: string;
  readonly lawHash: string;
  readonly profileId: string | null;
  /** Every module in the prompt, law first, then the selected modules in prompt order. */
  readonly modules: readonly PromptModuleRef[];
  readonly envelopeVersion: string;
  readonly blockVersions: readonly Pick<AppliedBlock, "id" | "version">[];
  readonly windowCount: number;
  readonly retrievalIncluded: boolean;
  readonly checkpointIncluded: boolean;
  readonly patchDirectiveCount: number;
  /** "sha256:" + SHA-256 of the messages (roles and contents, in order). */
  readonly promptHash: string;
}

/**
 * Assembles the main-call prompt in the contract's order: Mounted Law (+ output envelope
 * instructions), the profile modules the mode's clusterIds turn on, Runtime Deltas (ModeDecision, rigor rules, budgets, checkpoint capsule when
 * checkpointNeeded), compiled Driver Blocks (+ patch directives), Retrieval (memento summary and
 * retrieved memory summaries),
 * injected context, the last `windowSize` window messages, the user message, then any turn tail.
 */
export function assemblePrompt(input: AssemblePromptInput): AssembledPrompt {
  const messages: LlmMessage[] = [];
  messages.push({ role: "system", content: lawMessage(input.law) });
  const selected = selectPromptModules(input.modules ?? [], input.modeDecision.clusterIds);
  if (selected.length > 0)
    messages.push({ role: "system", content: selected.map((m) => m.content).join("\n\n") });

  const checkpointIncluded =
    input.modeDecision.checkpointNeeded &&
    input.checkpointCapsule !== undefined &&
    input.checkpointCapsule.trim().length > 0;
  const deltas = renderRuntimeDeltas(input.modeDecision, input.budgets);
  const capsule = checkpointIncluded ? `\n\n# Checkpoint capsule\n${input.checkpointCapsule?.trim()}` : "";
  messages.push({ role: "system", content: `${deltas}${capsule}` });

  const patchDirectives = (input.patchDirectives ?? []).filter((d) => d.trim().length > 0);
  const blocks = renderDriverBlocks(input.policy, patchDirectives);
  if (blocks !== null) messages.push({ role: "system", content: blocks });

  const memento = input.memento ?? null;
  const retrieved = (input.retrieval ?? []).filter((r) => r.trim().length > 0);
  if (memento !== null || retrieved.length > 0) {
    const parts = memento === null ? [] : [renderMementoSummary(memento)];
    if (retrieved.length > 0)
      parts.push(`Relevant memories:\n${retrieved.map((r) => `- ${r.trim()}`).join("\n")}`);
    messages.push({ role: "system", content: `# Retrieval (summaries only)\n${parts.join("\n\n")}` });
  }
  const injected = (input.injectedContext ?? []).filter((c) => c.trim().length > 0);
  if (injected.length > 0) {
    messages.push({
      role: "system",
      content: `# Injected context\n${injected.map((c) => c.trim()).join("\n\n")}`,
    });
  }

  const size = Math.max(0, Math.floor(input.windowSize ?? DEFAULT_WINDOW_SIZE));
  const conversational = input.window.filter((m) => m.role !== "system" && m.content.length > 0);
  let window = size === 0 ? [] : conversational.slice(-size);
  while (window[0]?.continues === true) window = window.slice(1);
  for (const m of window) messages.push(toLlmMessage(m));
  messages.push({ role: "user", content: input.userMessage });
  for (const m of input.turnTail ?? []) messages.push(toLlmMessage(m));

  const frozen = messages.map((m) => Object.freeze(m));
  return Object.freeze({
    messages: Object.freeze(frozen),
    lawId: input.law.id,
    lawVersion: input.law.version,
    lawHash: input.law.hash,
    profileId: input.profileId ?? null,
    modules: Object.freeze([input.law, ...selected].map(promptModuleRef)),
    envelopeVersion: ENVELOPE_VERSION,
    blockVersions: Object.freeze(
      input.policy.blocks.map((b) => Object.freeze({ id: b.id, version: b.version })),
    ),
    windowCount: window.length,
    retrievalIncluded: memento !== null || retrieved.length > 0,
    checkpointIncluded,
    patchDirectiveCount: patchDirectives.length,
    promptHash: hashPromptMessages(frozen, input.sha256Hex),
  });
}

// The first system message is the same several-KB text on every call of a mounted law; building it
// once per law saves a copy of it per turn. Keyed by the law object, checked against its content.
const LAW_MESSAGES = new WeakMap<MountedLaw, { readonly content: string; readonly text: string }>();

function lawMessage(law: MountedLaw): string {
  const cached = LAW_MESSAGES.get(law);
  if (cached !== undefined && cached.content === law.content) return cached.text;
  const text = `${law.content}\n\n${ENVELOPE_INSTRUCTIONS}`;
  LAW_MESSAGES.set(law, { content: law.content, text });
  return text;
}

function toLlmMessage(m: WindowMessage): LlmMessage {
  return m.providerMessage === undefined
    ? { role: m.role, content: m.content }
    : { role: m.role, content: m.content, providerMessage: m.providerMessage };
}

// The hashed text is the JSON of [role, content] pairs. A mounted law's several-KB text is the same
// string on every turn, so a system text's JSON comes from longTextJson, which keeps long ones.
function pairJson(m: LlmMessage): string {
  if (m.role !== "system" || typeof m.content !== "string") return JSON.stringify([m.role, m.content]);
  return `["system",${longTextJson(m.content)}]`;
}

/** The prompt hash of a message list, as recorded in AssembledPrompt.promptHash. */
export function hashPromptMessages(
  messages: readonly LlmMessage[],
  hash: (text: string) => string = sha256Hex,
): string {
  return `sha256:${hash(`[${messages.map(pairJson).join(",")}]`)}`;
}

/** Renders the per-call deltas: the ModeDecision summary, its rigor rules and the budgets. */
export function renderRuntimeDeltas(modeDecision: ModeDecision, budgets?: Budgets): string {
  const list = (items: readonly string[]) => (items.length > 0 ? items.join(", ") : "none");
  const lines = [
    "# Runtime deltas",
    `Active mode: ${modeDecision.modeLabel} (routing step ${modeDecision.step}, confidence ${modeDecision.confidence})`,
    `Domain flags: ${list(modeDecision.domainFlags)}`,
    `Rigor: ${modeDecision.rigorConfig.level}; gates: ${list(modeDecision.rigorConfig.gates)}`,
    `Prompt clusters: ${list(modeDecision.clusterIds)}`,
  ];
  const rules = activeRigorRules(modeDecision);
  if (rules.length > 0) lines.push("Rigor rules:", ...rules.map((r) => `- ${r.instruction}`));
  const budgetLine = renderBudgets(budgets);
  if (budgetLine !== null) lines.push(budgetLine);
  return lines.join("\n");
}

function renderBudgets(budgets: Budgets | undefined): string | null {
  if (budgets === undefined) return null;
  const parts: string[] = [];
  if (budgets.maxOutputTokens !== undefined) parts.push(`reply within ${budgets.maxOutputTokens} tokens`);
  if (budgets.maxInputTokens !== undefined) parts.push(`prompt cap ${budgets.maxInputTokens} tokens`);
  if (budgets.maxRegenerations !== undefined) parts.push(`regenerations allowed ${budgets.maxRegenerations}`);
  if (budgets.timeoutMs !== undefined) parts.push(`timeout ${budgets.timeoutMs} ms`);
  return parts.length > 0 ? `Budgets: ${parts.join("; ")}` : null;
}

function renderDriverBlocks(policy: CompiledPolicy, patchDirectives: readonly string[]): string | null {
  const lines: string[] = [];
  if (policy.blocks.length > 0) {
    const ids = policy.blocks.map((b) => `${b.id}@${b.version}`).join(", ");
    lines.push(`# Driver Blocks (${policy.driverBlockMode}): ${ids}`);
    lines.push(...policy.promptConstraints.map((c) => `- ${c}`));
  }
  if (patchDirectives.length > 0) {
    if (lines.length > 0) lines.push("");
    lines.push("# Patch directives (regeneration)");
    lines.push(
      "Your previous reply failed validation. Fix exactly these points and keep everything else that was right:",
    );
    lines.push(...patchDirectives.map((d) => `- ${d}`));
  }
  return lines.length > 0 ? lines.join("\n") : null;
}
