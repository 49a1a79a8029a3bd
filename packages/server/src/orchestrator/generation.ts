import {
  type AssembledPrompt,
  buildPatchDirectives,
  type CompiledPolicy,
  decideDriftOutcome,
  type LintResult,
  type LlmCallPurpose,
  type LlmProvider,
  type LlmRequestHints,
  type LlmResponse,
  lintOutput,
  type ModeDecision,
  type ModelOutputEnvelope,
  parseModelOutput,
  SolError,
  type ToolCall,
  type Violation,
} from "@solserver/core";
import type { TurnPrompt } from "./assemble-phase.js";
import { assembleWithinBudget, promptTokens } from "./input-budget.js";
import { envelopeResponseFormat, traceFallbacks } from "./provider-calls.js";
import { refusalOf } from "./refusal.js";
import { cutAtStopSequence } from "./stop-sequences.js";
import { readStructuredReply, withStructuredViolation } from "./structured-reply.js";
import { toolCallName, toolCallsOf } from "./tool-calls.js";
import type { TraceBuffer } from "./trace-buffer.js";
import { truncatedEnvelopeText } from "./truncated-envelope.js";
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
}

async function attempt(input: GenerationInput, purpose: LlmCallPurpose, directives?: readonly string[]) {
  const { prompt, trimmedForBudget } = assembleWithinBudget({
    ...input.prompt,
    ...(directives ? { patchDirectives: directives } : {}),
  });
  input.trace.add("assemble", "completed", `Prompt assembled for ${purpose}`, {
    lawId: prompt.lawId,
    lawVersion: prompt.lawVersion,
    lawHash: prompt.lawHash,
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
  const response = await input.provider.complete({
    purpose,
    // budgets.timeoutMs caps each model call of the turn; the provider fails it as a timeout (502).
    ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    messages: prompt.messages,
    json: true,
    responseFormat: structured ? structured.format : envelopeResponseFormat(),
    hints: structured ? { ...input.hints, clientDocument: true } : input.hints,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(facade.passthrough === undefined ? {} : { passthrough: facade.passthrough }),
  });
  input.onCall(purpose, response);
  traceFallbacks(input.trace, purpose, response);
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
    } satisfies Attempt;
  }
  // Structured output (facade hook): the reply is the client's document, checked against its schema.
  const document = structured ? readStructuredReply(response.text, structured) : null;
  const read = document ?? readEnvelope(response);
  const cut = document
    ? { stopped: false, text: read.envelope.assistant_text }
    : cutAtStopSequence(read.envelope.assistant_text, input.plan.facade.stopSequences);
  const parsed = cut.stopped ? { ...read, envelope: { ...read.envelope, assistant_text: cut.text } } : read;
  // The reply ended at a stop sequence: it is complete as asked, whatever cut the provider made later.
  const answered = cut.stopped ? { ...response, finishReason: "stop" } : response;
  const lint = withStructuredViolation(
    lintOutput({
      text: parsed.envelope.assistant_text,
      envelope: parsed.envelope,
      modeDecision: input.modeDecision,
      policy: input.policy,
      modes: input.modes,
      formatViolation: "formatViolation" in parsed ? parsed.formatViolation : false,
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
      ...(cut.stopped ? { stoppedAtSequence: true } : {}),
      violations: lint.violations.map((v) => v.code),
    },
  );
  return { response: answered, envelope: parsed.envelope, lint, prompt, toolCalls } satisfies Attempt;
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
 * The reply's envelope. A reply the provider cut off at the token limit is unfinished JSON; its
 * `assistant_text` so far is the reply (rather than the raw JSON shown as a format violation).
 */
function readEnvelope(response: LlmResponse): ReturnType<typeof parseModelOutput> {
  const parsed = parseModelOutput(response.text);
  if (!parsed.formatViolation || response.finishReason !== "length") return parsed;
  const partial = truncatedEnvelopeText(response.text);
  return partial === null
    ? parsed
    : { envelope: { assistant_text: partial }, formatViolation: false, parse: "truncated" };
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
  if (decision.action === "return") return toResult(first, decision, [first]);

  const directives = buildPatchDirectives(first.lint.violations);
  input.trace.add("drift", "warning", "Drift flare: regenerating once with patch directives", {
    violations: first.lint.violations.map((v) => v.code),
    directives: directives.length,
  });
  let second: Attempt;
  try {
    second = await attempt(input, "regeneration", directives);
  } catch (error) {
    if (!(error instanceof SolError)) throw error;
    input.trace.add("drift", "failed", "Regeneration call failed; returning the first output", {
      code: error.code,
    });
    return toResult(first, { passed: false, regenerated: false, flare: true, repeatedFailure: true }, [
      first,
    ]);
  }
  const final = decideDriftOutcome({ first: first.lint, second: second.lint });
  if (final.action !== "return")
    throw new SolError("internal", "Drift protocol asked for a second regeneration.");
  return toResult(final.use === "second" ? second : first, final, [first, second]);
}

function toResult(
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
    violations: outcome.violations ?? chosen.lint.violations,
    response: chosen.response,
    prompt: chosen.prompt,
    toolCalls: chosen.toolCalls,
    ...(chosen.refusal === undefined ? {} : { refusal: chosen.refusal }),
  };
}
