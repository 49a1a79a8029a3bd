import {
  type ChatResponse,
  ChatResponse as ChatResponseSchema,
  type ClaimTransmissionInput,
  type CommitTurnInput,
  ThreadMementoV02 as ThreadMementoSchema,
  type ThreadMementoV02,
} from "@solserver/core";

export const T0 = "2025-03-01T10:00:00.000Z";

/** A valid memento (checked against the schema) whose arc tells versions apart. */
export function sampleMemento(threadId: string, arc = "planning the launch"): ThreadMementoV02 {
  return ThreadMementoSchema.parse({
    mementoId: `mem-${threadId}`,
    threadId,
    createdTs: T0,
    version: "memento-v0.2",
    arc,
    active: ["pick a date"],
    parked: [],
    decisions: ["ship in April"],
    next: ["draft the note", "ask Ana"],
    affect: {
      points: [{ endMessageId: "m1", label: "calm", intensity: 0.25, confidence: "med", source: "server" }],
      rollup: { phase: "settled", intensityBucket: "low", updatedAt: T0 },
    },
    signals: {
      updatedAt: T0,
      items: [{ endMessageId: "m1", kind: "decision_made", confidence: "high", source: "model" }],
    },
  });
}

/** A valid chat response (checked against the schema). */
export function sampleResponse(
  requestId: string,
  transmissionId: string,
  threadId: string,
  text = "Hello.",
): ChatResponse {
  return ChatResponseSchema.parse({
    transmissionId,
    requestId,
    threadId,
    assistant: { messageId: `a-${requestId}`, content: text },
    modeDecision: {
      modeLabel: "assist",
      domainFlags: [],
      rigorConfig: { level: "normal", gates: ["facts"] },
      clusterIds: ["core"],
      checkpointNeeded: false,
      confidence: 0.875,
      reasons: ["keyword: plan"],
      version: "router-1",
      step: 1,
    },
    breakpoint: { decision: "skip", peakGuardrailActive: false },
    threadMemento: null,
    actions: [],
    validation: { passed: true, regenerated: false, violations: [] },
    trace: { traceRunId: `run-${requestId}` },
    usage: { modelCalls: 1, inputTokens: 120, outputTokens: 14 },
    provider: { name: "offline", model: "offline-1", offline: true },
  });
}

/** Claim input with sensible defaults. */
export function claimInput(
  tenantId: string,
  requestId: string,
  overrides: Partial<ClaimTransmissionInput> = {},
): ClaimTransmissionInput {
  return {
    tenantId,
    requestId,
    threadId: "thread-1",
    bodyHash: `hash-${requestId}`,
    type: "chat",
    transmissionId: `tx-${requestId}`,
    traceRunId: `run-${requestId}`,
    now: T0,
    ...overrides,
  };
}

/** commitTurn input for a claimed transmission, numbered so message ids stay unique. */
export function turnInput(
  tenantId: string,
  requestId: string,
  turn: number,
  overrides: Partial<CommitTurnInput> = {},
): CommitTurnInput {
  const transmissionId = `tx-${requestId}`;
  const threadId = overrides.threadId ?? "thread-1";
  return {
    tenantId,
    transmissionId,
    requestId,
    bodyHash: `hash-${requestId}`,
    threadId,
    userMessage: { messageId: `u-${requestId}`, content: `question ${turn}` },
    assistantMessage: { messageId: `a-${requestId}`, content: `answer ${turn}`, modeLabel: "companion" },
    bumpTurnsSincePersist: false,
    response: sampleResponse(requestId, transmissionId, threadId, `answer ${turn}`),
    now: T0,
    ...overrides,
  };
}
