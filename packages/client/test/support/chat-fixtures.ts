import type { ChatResponse, PacketInput } from "@solserver/core";

/** A ChatResponse that passes the core schema, answering `packet` deterministically. */
export function fakeChatResponse(
  packet: Pick<PacketInput, "requestId" | "threadId" | "message">,
  n: number,
): ChatResponse {
  return {
    transmissionId: `srv_tx_${n}`,
    requestId: packet.requestId,
    threadId: packet.threadId,
    assistant: { messageId: `srv_msg_${n}`, content: `echo: ${packet.message}` },
    modeDecision: {
      modeLabel: "default",
      domainFlags: [],
      rigorConfig: { level: "normal", gates: [] },
      clusterIds: [],
      checkpointNeeded: false,
      confidence: 1,
      reasons: ["fake server"],
      version: "fake-1",
      step: 1,
    },
    breakpoint: { decision: "skip", peakGuardrailActive: false },
    threadMemento: null,
    actions: [],
    validation: { passed: true, regenerated: false, violations: [] },
    trace: { traceRunId: `run_${n}` },
    usage: { modelCalls: 1 },
  };
}
