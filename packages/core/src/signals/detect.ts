import type { ThreadMementoSignalKind } from "../contracts/signals.js";
import { clipText } from "../text/index.js";
import { detectAnswer, detectAssistantLoop, type Hit } from "./reply.js";
import type { DetectSignalsInput, DetectSignalsOptions, SignalCandidate } from "./types.js";
import { detectUserSignals } from "./user-signals.js";

const SUMMARY_MAX = 180;
const DEFAULT_MIN_CONFIDENCE = 0.5;

/** Every breakpoint signal the turn's text shows, source "server", one per kind, strongest first. */
export function detectSignals(
  input: DetectSignalsInput,
  options: DetectSignalsOptions = {},
): SignalCandidate[] {
  const min = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const hits = new Map<ThreadMementoSignalKind, Hit>(
    detectUserSignals(input.userMessage, input.previousAssistantText, input.openLoops ?? []),
  );
  const reply = input.assistantText?.trim() ?? "";
  if (reply !== "" && !hits.has("ack_only")) {
    const answer = detectAnswer(input.userMessage, reply);
    if (answer !== undefined) hits.set("answer_provided", answer);
    const loop = detectAssistantLoop(reply);
    const userLoop = hits.get("open_loop_created");
    if (loop !== undefined && (userLoop === undefined || loop.confidence > userLoop.confidence)) {
      hits.set("open_loop_created", loop);
    }
  }
  return [...hits]
    .filter(([, hit]) => hit.confidence >= min)
    .map(
      ([kind, hit]): SignalCandidate => ({
        kind,
        confidence: round(hit.confidence),
        source: "server",
        summary: clipText(hit.summary, SUMMARY_MAX),
      }),
    )
    .sort((a, b) => b.confidence - a.confidence);
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
