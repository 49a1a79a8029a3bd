import type { ThreadMementoV02 } from "@solserver/core";
import {
  echoEnvelope,
  type RecordedRequest,
  type ScriptedUpstream,
  type ScriptStep,
  startScriptedUpstream,
} from "@solserver/harness";
import { createOpenAiProvider } from "../../src/index.js";

/** True for the router's mode-selector calls (as opposed to main and regeneration calls). */
export function isSelectorRequest(req: RecordedRequest): boolean {
  return messagesOf(req).some((m) => m.role === "system" && m.content.includes("mode selector"));
}

/** The messages of a recorded request. */
export function messagesOf(req: RecordedRequest | undefined): { role: string; content: string }[] {
  return (req?.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
}

/**
 * A scripted OpenAI-compatible model on a real socket: selector calls are answered from `selector`
 * in order (then a fixed valid choice), main calls from `main` in order (then the echo envelope), and
 * both are counted.
 */
export async function startScriptedModel(selectorMode = "assist") {
  const main: ScriptStep[] = [];
  const selector: ScriptStep[] = [];
  const counts = { selector: 0, main: 0 };
  const upstream: ScriptedUpstream = await startScriptedUpstream({
    fallback: (req) => {
      if (isSelectorRequest(req)) {
        counts.selector += 1;
        return (
          selector.shift() ?? {
            kind: "json",
            body: { modeLabel: selectorMode, confidence: 0.9, reasons: ["scripted"] },
          }
        );
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
    /** Queues replies for the next selector calls. */
    replySelector(...steps: ScriptStep[]) {
      selector.push(...steps);
    },
    /** The messages of the last main or regeneration call. */
    lastMainPrompt() {
      return messagesOf(upstream.requests.filter((r) => !isSelectorRequest(r)).at(-1));
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
