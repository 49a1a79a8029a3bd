import type { ThreadMementoV02 } from "@solserver/core";
import {
  createOpenAiProvider,
  echoEnvelope,
  type RecordedRequest,
  type ScriptedUpstream,
  type ScriptStep,
  startScriptedUpstream,
} from "../../src/index.js";

/** True for the router's mode-selector calls (as opposed to main and regeneration calls). */
export function isSelectorRequest(req: RecordedRequest): boolean {
  const messages =
    (req.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
  return messages.some((m) => m.role === "system" && m.content.includes("mode selector"));
}

/**
 * A scripted OpenAI-compatible model on a real socket: selector calls get a fixed valid choice, main
 * calls are answered from `main` in order (then the echo envelope), and both are counted.
 */
export async function startScriptedModel(selectorMode = "assist") {
  const main: ScriptStep[] = [];
  const counts = { selector: 0, main: 0 };
  const upstream: ScriptedUpstream = await startScriptedUpstream({
    fallback: (req) => {
      if (isSelectorRequest(req)) {
        counts.selector += 1;
        return { kind: "json", body: { modeLabel: selectorMode, confidence: 0.9, reasons: ["scripted"] } };
      }
      counts.main += 1;
      return main.shift() ?? { kind: "json", body: echoEnvelope(req) };
    },
  });
  const provider = createOpenAiProvider({
    baseUrl: upstream.url,
    model: "scripted",
    maxRetries: 2,
    timeoutMs: 5_000,
    sleep: async () => {},
  });
  return {
    upstream,
    provider,
    counts,
    /** Queues replies for the next main/regeneration calls. */
    reply(...steps: ScriptStep[]) {
      main.push(...steps);
    },
    close: () => upstream.close(),
  };
}

/** A v0.2 memento at peak intensity (phase peak, bucket high), optionally carrying signals. */
export function peakMemento(threadId: string, arc: string, signalKinds: string[] = []): ThreadMementoV02 {
  const ts = "2026-01-01T10:00:00.000Z";
  return {
    mementoId: "mem-peak",
    threadId,
    createdTs: ts,
    version: "memento-v0.2",
    arc,
    active: ["a thing in flight"],
    parked: [],
    decisions: [],
    next: [],
    affect: {
      points: [
        { endMessageId: "m1", label: "overwhelm", intensity: 0.85, confidence: "high", source: "model" },
        { endMessageId: "m2", label: "overwhelm", intensity: 0.86, confidence: "high", source: "model" },
      ],
      rollup: { phase: "peak", intensityBucket: "high", updatedAt: ts },
    },
    ...(signalKinds.length > 0
      ? {
          signals: {
            updatedAt: ts,
            items: signalKinds.map((kind) => ({
              endMessageId: "m2",
              kind: kind as never,
              confidence: "high" as const,
              source: "server" as const,
            })),
          },
        }
      : {}),
  };
}
