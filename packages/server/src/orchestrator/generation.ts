import {
  type AssembledPrompt,
  buildPatchDirectives,
  type CompiledPolicy,
  decideDriftOutcome,
  LINT_CODES,
  type LintResult,
  type LlmCallPurpose,
  type LlmProvider,
  type LlmRequest,
  type LlmRequestHints,
  type LlmResponse,
  lintOutput,
  type ModeDecision,
  type ModelOutputEnvelope,
  SolError,
  type ToolCall,
  type Violation,
} from "@solserver/core";
import type { TurnPrompt } from "./assemble-phase.js";
import { continuationDirective, joinContinuation, mayStream } from "./continuation.js";
import { readEnvelope } from "./envelope-repair.js";
import { assembleWithinBudget, promptTokens } from "./input-budget.js";
import { envelopeResponseFormat, traceFallbacks } from "./provider-calls.js";
import { refusalOf } from "./refusal.js";
import { cutAtStopSequence } from "./stop-sequences.js";
import type { ShownText } from "./stream-sink.js";
import { type StreamedCall, streamedCall } from "./streamed-call.js";
import { readStructuredReply, withStructuredViolation } from "./structured-reply.js";
import { toolCallName, toolCallsOf } from "./tool-calls.js";
import type { TraceBuffer } from "./trace-buffer.js";
import type { TurnPlan } from "./turn-plan.js";

export interface GenerationInput {
  readonly provider: LlmProvider;
  /** The turn's plan: output cap, call timeout, whether a regeneration is allowed, stop sequences, passthrough. */
  readonly plan: TurnPlan;
  readonly prompt: TurnPrompt;
  readonly modeDecision: ModeDecision;
  readonly policy: CompiledPolicy;
  /** The mode pack's labels: a reply announcing a switch to another of them is strict mode drift. */
  readonly modes: readonly string[];
  readonly hints: LlmRequestHints;
  readonly trace: TraceBuffer;
  readonly onCall: (purpose: LlmCallPurpose, response: LlmResponse) => void;
  /** Set when the route streams the reply: guarded deltas and retracts go here as the model writes. */
  readonly show?: ShownText;
}

export interface GenerationResult {
  readonly envelope: ModelOutputEnvelope;
  readonly text: string;
  readonly passed: boolean;
  readonly regenerated: boolean;
  readonly flare: boolean;
  readonly repeatedFailure: boolean;
  readonly violations: readonly Violation[];
  /** Codes of the violations found in every output of the turn (first and regenerated), without repeats. */
  readonly driftCodes: readonly string[];
  readonly response: LlmResponse;
  readonly prompt: AssembledPrompt;
  /** Function calls the model made (passthrough `tools`); empty otherwise. */
  readonly toolCalls: readonly ToolCall[];
  /** The provider's refusal text when it declined to answer (then also the reply text). */
  readonly refusal?: string;
}

interface Attempt {
  readonly response: LlmResponse;
  readonly envelope: ModelOutputEnvelope;
  readonly lint: LintResult;
  readonly prompt: AssembledPrompt;
  readonly toolCalls: readonly ToolCall[];
  readonly refusal?: string;
  /** True when the reply was not an envelope, even after repair. */
  readonly formatViolation: boolean;
  /** Set for a streamed call cut at a prefix violation (its text is partial). */
  readonly stoppedAt?: string;
}

async function attempt(
  input: GenerationInput,
  purpose: LlmCallPurpose,
  directives?: readonly string[],
  continues = "",
): Promise<Attempt> {
  const { prompt, trimmedForBudget } = assembleWithinBudget({
    ...input.prompt,
    ...(directives ? { patchDirectives: directives } : {}),
  });
  input.trace.add("assemble", "completed", `Prompt assembled for ${purpose}`, {
    lawId: prompt.lawId,
    lawVersion: prompt.lawVersion,
    lawHash: prompt.lawHash,
    // Each module's id, version and hash: with the deltas, blocks, retrieval and window the prompt is rebuilt from these.
    profileId: prompt.profileId,
    modules: prompt.modules,
    blockVersions: prompt.blockVersions,
    windowCount: prompt.windowCount,
    retrievalIncluded: prompt.retrievalIncluded,
    checkpointIncluded: prompt.checkpointIncluded,
    patchDirectiveCount: prompt.patchDirectiveCount,
    promptHash: prompt.promptHash,
    estimatedInputTokens: promptTokens(prompt),
    ...(trimmedForBudget > 0 ? { trimmedForBudget } : {}),
  });
  const { timeoutMs, maxOutputTokens, facade } = input.plan;
  const structured = facade.structuredOutput;
  const request: LlmRequest = {
    purpose,
    // budgets.timeoutMs caps each model call of the turn; the provider fails it as a timeout (502).
    ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    messages: prompt.messages,
    json: true,
    responseFormat: structured ? structured.format : envelopeResponseFormat(),
    hints: structured ? { ...input.hints, clientDocument: true } : input.hints,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(facade.passthrough === undefined ? {} : { passthrough: facade.passthrough }),
  };
  const streamed = await callModel(input, request, purpose, continues);
  const response = streamed?.response ?? (await input.provider.complete(request));
  input.onCall(purpose, response);
  traceFallbacks(input.trace, purpose, response);
  if (streamed?.aborted === true) return stoppedAttempt(input, purpose, streamed, prompt);
  input.trace.add(
    "model_call",
    "completed",
    `${purpose} call answered`,
    {
      purpose,
      provider: response.provider,
      model: response.model,
      offline: response.offline,
      outputTokens: response.usage?.outputTokens ?? null,
    },
    "model",
  );
  const toolCalls = toolCallsOf(response.raw);
  const direct = directReply(response, toolCalls);
  if (direct !== null) {
    input.trace.add("validate", "completed", direct.summary, {
      purpose,
      parse: direct.parse,
      ...(direct.parse === "tool_calls" ? { toolCalls: toolCalls.map(toolCallName) } : {}),
      violations: [],
    });
    const lint: LintResult = { passed: true, violations: [] };
    return {
      response,
      envelope: { assistant_text: direct.text },
      lint,
      prompt,
      toolCalls,
      ...(direct.refusal === undefined ? {} : { refusal: direct.refusal }),
      formatViolation: false,
    } satisfies Attempt;
  }
  // Structured output (facade hook): the reply is the client's document, checked against its schema.
  const document = structured ? readStructuredReply(response.text, structured) : null;
  const read = document ?? readEnvelope(response.text, response.finishReason === "length");
  const cut = document
    ? { stopped: false, text: read.envelope.assistant_text }
    : cutAtStopSequence(read.envelope.assistant_text, input.plan.facade.stopSequences);
  const replyText = joinContinuation(continues, cut.text);
  const parsed =
    replyText !== read.envelope.assistant_text
      ? { ...read, envelope: { ...read.envelope, assistant_text: replyText } }
      : read;
  // The reply ended at a stop sequence: it is complete as asked, whatever cut the provider made later.
  const answered = cut.stopped ? { ...response, finishReason: "stop" } : response;
  const lint = withStructuredViolation(
    lintOutput({
      text: parsed.envelope.assistant_text,
      envelope: parsed.envelope,
      modeDecision: input.modeDecision,
      policy: input.policy,
      modes: input.modes,
      formatViolation: parsed.formatViolation,
    }),
    document,
  );
  input.trace.add(
    "validate",
    lint.passed ? "completed" : "warning",
    lint.passed ? "Output valid" : "Output violates",
    {
      purpose,
      parse: parsed.parse,
      ...(read.repair === undefined ? {} : { repair: read.repair }),
      ...(streamed?.violation ? { streamStoppedAt: streamed.violation.code } : {}),
      ...(cut.stopped ? { stoppedAtSequence: true } : {}),
      violations: lint.violations.map((v) => v.code),
    },
  );
  return {
    response: answered,
    envelope: parsed.envelope,
    lint: read.repair === undefined ? lint : withRepairNote(lint, read.repair),
    prompt,
    toolCalls,
    formatViolation: parsed.formatViolation,
  } satisfies Attempt;
}

/**
 * Streams the call when the route streams and the reply may stream (continuation.ts `mayStream`); null
 * when the call is made whole. A regeneration is still possible when this is the main call and budgets
 * allow one: only then is the upstream cut at a violation. `continues` is text a no-retract sink showed.
 */
async function callModel(
  input: GenerationInput,
  request: LlmRequest,
  purpose: LlmCallPurpose,
  continues: string,
) {
  const show = input.show;
  if (show === undefined || !mayStream(input)) return null;
  return streamedCall(input, request, show, {
    abortOnViolation: purpose === "main" && input.plan.regenerationAllowed,
    jsonOnly: !show.canRetract,
    continues,
  });
}

/** A main call cut at a prefix violation: its lint is the violations of the text read so far. */
/** The strict rules the stream guard decides on a prefix. */
const PREFIX_CODES: ReadonlySet<string> = new Set([
  LINT_CODES.forbiddenPattern,
  LINT_CODES.authorityLaundering,
  LINT_CODES.claimedAction,
  LINT_CODES.modeDrift,
]);

function stoppedAttempt(
  input: GenerationInput,
  purpose: LlmCallPurpose,
  streamed: StreamedCall,
  prompt: AssembledPrompt,
): Attempt {
  const full = lintOutput({
    text: streamed.guardedText,
    modeDecision: input.modeDecision,
    policy: input.policy,
    modes: input.modes,
  });
  const violations = full.violations.filter((v) => PREFIX_CODES.has(v.code));
  const lint: LintResult = { passed: violations.every((v) => v.enforcement !== "strict"), violations };
  input.trace.add("validate", "warning", "Stream stopped at a prefix violation", {
    purpose,
    parse: "stream_stopped",
    streamStoppedAt: streamed.violation?.code ?? null,
    violations: violations.map((v) => v.code),
  });
  return {
    response: streamed.response,
    envelope: { assistant_text: streamed.guardedText.slice(0, streamed.violation?.index ?? undefined) },
    lint: lint.passed ? { passed: false, violations: [...violations, stopViolation(streamed)] } : lint,
    prompt,
    toolCalls: [],
    formatViolation: false,
    stoppedAt: streamed.violation?.code ?? "violation",
  };
}

// The guard and lintOutput read the same phrases; should they ever disagree, the stop still counts.
function stopViolation(streamed: StreamedCall): Violation {
  return {
    code: streamed.violation?.code ?? LINT_CODES.forbiddenPattern,
    source: "stream-guard",
    enforcement: "strict",
    message: `The reply contains "${streamed.violation?.phrase ?? "a forbidden phrase"}"; remove or rephrase it.`,
  };
}

/** A repaired envelope is a valid reply, but never silently: a warn note says what was repaired. */
function withRepairNote(lint: LintResult, repair: string): LintResult {
  const note: Violation = {
    code: repair === "truncated" ? "envelope_truncated" : "envelope_repaired",
    source: "envelope",
    enforcement: "warn",
    message:
      repair === "salvaged_meta"
        ? "The reply's envelope had invalid meta parts; its text and valid parts were kept, the rest of the meta was dropped."
        : repair === "alias_key"
          ? "The reply's envelope used other keys; it was rebuilt as assistant_text and meta."
          : "The reply's envelope was cut off; the text it reached is the reply and its meta was lost.",
  };
  return { passed: lint.passed, violations: [...lint.violations, note] };
}

/**
 * A reply with no envelope to validate, and nothing a regeneration would fix: tool calls only (the
 * client's next step), the provider's refusal (which is the reply), or a reply the provider filtered
 * away. Null for an ordinary reply.
 */
function directReply(
  response: LlmResponse,
  toolCalls: readonly ToolCall[],
): {
  readonly parse: string;
  readonly summary: string;
  readonly text: string;
  readonly refusal?: string;
} | null {
  if (response.text.trim() !== "") return null;
  if (toolCalls.length > 0) {
    return { parse: "tool_calls", summary: "Tool calls returned; no reply text to validate", text: "" };
  }
  const refusal = refusalOf(response.raw);
  if (refusal !== null) {
    return {
      parse: "refusal",
      summary: "The provider refused; the refusal is the reply",
      text: refusal,
      refusal,
    };
  }
  if (response.finishReason === "content_filter") {
    return { parse: "content_filter", summary: "The provider filtered the reply", text: "" };
  }
  return null;
}

/**
 * Main call, validation and at most one regeneration with targeted patch directives (S5). If the
 * regeneration call itself fails, the first (non-compliant) output is returned rather than nothing.
 */
export async function generateValidated(input: GenerationInput): Promise<GenerationResult> {
  const first = await attempt(input, "main");
  // A reply cut off at the token limit would be cut off again: regenerating it only costs a call.
  const cutShort = first.response.finishReason === "length";
  const decision = decideDriftOutcome({
    first: first.lint,
    regenerationAllowed: input.plan.regenerationAllowed && !cutShort,
  });
  if (decision.action === "return") return settled(input, toResult(input, first, decision, [first]));

  const patches = buildPatchDirectives(first.lint.violations);
  // A sink that cannot retract keeps what it was shown: the regeneration continues that text.
  const continues = input.show?.canRetract === false ? input.show.shown() : "";
  const directives = continues === "" ? patches : [...patches, continuationDirective(continues)];
  input.trace.add("drift", "warning", "Drift flare: regenerating once with patch directives", {
    violations: first.lint.violations.map((v) => v.code),
    directives: directives.length,
    ...(first.stoppedAt === undefined ? {} : { streamStoppedAt: first.stoppedAt }),
  });
  // Everything streamed so far is withdrawn; the regeneration streams through the same guard.
  if (input.show?.canRetract === true) input.show.retract(retractReason(first));
  let second: Attempt;
  try {
    second = await attempt(input, "regeneration", directives, continues);
  } catch (error) {
    if (!(error instanceof SolError)) throw error;
    input.trace.add("drift", "failed", "Regeneration call failed; returning the first output", {
      code: error.code,
    });
    const outcome = { passed: false, regenerated: false, flare: true, repeatedFailure: true };
    return settled(input, toResult(input, first, outcome, [first]));
  }
  const final = decideDriftOutcome({ first: first.lint, second: second.lint });
  if (final.action !== "return")
    throw new SolError("internal", "Drift protocol asked for a second regeneration.");
  const chosen = chooseAttempt(first, second, final.use);
  const outcome = { ...final, violations: chosen.lint.violations };
  return settled(input, toResult(input, chosen, outcome, [first, second]));
}

/**
 * A draft stopped mid-stream is cut before its end and was never checked as a whole, so it cannot win
 * a tie (or a count of end-of-reply violations it was never tested for) against a complete
 * regeneration: a complete reply is kept unless it too breaks a rule decidable on a prefix.
 */
function chooseAttempt(first: Attempt, second: Attempt, use: "first" | "second"): Attempt {
  if (use === "second" || first.stoppedAt === undefined || second.stoppedAt !== undefined) {
    return use === "second" ? second : first;
  }
  const prefixStrict = second.lint.violations.some(
    (v) => v.enforcement === "strict" && PREFIX_CODES.has(v.code),
  );
  return prefixStrict ? first : second;
}

/** The first strict violation's code: what a streaming client is told when its deltas are withdrawn. */
function retractReason(first: Attempt): string {
  return (
    first.stoppedAt ?? first.lint.violations.find((v) => v.enforcement === "strict")?.code ?? "violation"
  );
}

/** Streams what the guard still held once the whole reply is decided, so the deltas add up to it. */
function settled(input: GenerationInput, result: GenerationResult): GenerationResult {
  const show = input.show;
  // A no-retract sink whose turn was held to the end is answered whole by its route, every header set.
  if (show === undefined || (!show.canRetract && !mayStream(input))) return result;
  // Every reply of a no-retract stream continues what it showed; should one not, the shown text stands.
  const shown = show.shown();
  if (!show.canRetract && !result.text.startsWith(shown)) {
    input.trace.add(
      "validate",
      "warning",
      "Reply did not continue the streamed text; the streamed text is the reply",
      {},
    );
    return { ...result, text: shown, envelope: { ...result.envelope, assistant_text: shown } };
  }
  show.settle(result.text, "reply_replaced");
  return result;
}

function toResult(
  input: GenerationInput,
  chosen: Attempt,
  outcome: {
    passed: boolean;
    regenerated: boolean;
    flare: boolean;
    repeatedFailure: boolean;
    violations?: readonly Violation[];
  },
  outputs: readonly Attempt[],
): GenerationResult {
  return {
    driftCodes: [...new Set(outputs.flatMap((o) => o.lint.violations.map((v) => v.code)))],
    envelope: chosen.envelope,
    text: chosen.envelope.assistant_text,
    passed: outcome.passed,
    regenerated: outcome.regenerated,
    flare: outcome.flare,
    repeatedFailure: outcome.repeatedFailure,
    violations: chosen.formatViolation
      ? [...(outcome.violations ?? chosen.lint.violations), metaLost(input, outputs.length > 1)]
      : (outcome.violations ?? chosen.lint.violations),
    response: chosen.response,
    prompt: chosen.prompt,
    toolCalls: chosen.toolCalls,
    ...(chosen.refusal === undefined ? {} : { refusal: chosen.refusal }),
  };
}

/**
 * The reply returned was not an envelope even after repair (and after the one regeneration when one
 * ran): its text is the reply and the turn's meta is lost. Said in the response and the trace.
 */
function metaLost(input: GenerationInput, regenerated: boolean): Violation {
  const message = `The reply was not an output envelope${regenerated ? ", even after a regeneration" : ""}: its text is the reply, and the turn's meta (memento shape, signals, proposed actions) was lost.`;
  input.trace.add("validate", "warning", "Envelope meta lost", { regenerated });
  return { code: "envelope_meta_lost", source: "envelope", enforcement: "warn", message };
}
