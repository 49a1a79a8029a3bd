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
    userHits(input.userMessage, input.previousAssistantText, input.openLoops ?? []),
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

interface UserHitsEntry {
  readonly message: string;
  readonly previous: string | undefined;
  readonly openLoops: readonly string[];
  readonly hits: ReadonlyMap<ThreadMementoSignalKind, Hit>;
}

// A turn runs the detectors twice on the same user side: before the model call, and after it with
// the reply. The user's hits for the last few inputs are kept; equal inputs give equal hits, and a
// hit is never changed after it is made (the caller gets its own map).
const RECENT_USER_HITS = 8;
const recentUserHits: UserHitsEntry[] = [];

function userHits(
  message: string,
  previous: string | undefined,
  openLoops: readonly string[],
): ReadonlyMap<ThreadMementoSignalKind, Hit> {
  for (const entry of recentUserHits) {
    if (entry.message === message && entry.previous === previous && sameList(entry.openLoops, openLoops)) {
      return entry.hits;
    }
  }
  const hits: ReadonlyMap<ThreadMementoSignalKind, Hit> = detectUserSignals(message, previous, openLoops);
  recentUserHits.unshift({ message, previous, openLoops: [...openLoops], hits });
  if (recentUserHits.length > RECENT_USER_HITS) recentUserHits.pop();
  return hits;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
