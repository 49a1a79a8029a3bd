import type { Cue } from "./cue-match.js";
import { bestCueHit } from "./cue-match.js";
import { splitClauses, words } from "./text.js";

/** A detector hit: a confidence and the text it rests on. */
export interface Hit {
  readonly confidence: number;
  readonly summary: string;
}

const ASKING_START =
  /^(?:(?:ok|okay|so|and|hey|also|quick question),? ){0,3}(?:what|why|how|when|where|which|who|whose|is|are|was|were|can|could|do|does|did|should|would|will|tell me|explain|any idea)\b/;
const DEFERRAL =
  /^(?:i'm not sure|i am not sure|i don't know|i do not know|i don't have|i can't|i cannot|i'm unable|it depends|that depends|good question|hmm|sure, i'd love|i'd love to help|could you|can you)/;
const ASKS_BACK =
  /\b(?:could you tell me|can you tell me|tell me (?:a bit )?more|what is your|what's your|where are you|how many people|which one do you|do you want me to)\b/;

/** True when the user asks something the reply could answer: a question mark or an asking start. */
export function asksQuestion(userMessage: string): boolean {
  return splitClauses(userMessage).some(
    (clause) => clause.text.endsWith("?") || ASKING_START.test(clause.text),
  );
}

/** answer_provided: the user asked, and the reply answers with substance rather than asking back. */
export function detectAnswer(userMessage: string, reply: string): Hit | undefined {
  if (!asksQuestion(userMessage)) return undefined;
  const clauses = splitClauses(reply);
  const first = clauses[0];
  if (first === undefined) return undefined;
  const text = first.text;
  if (DEFERRAL.test(text) || ASKS_BACK.test(reply.toLowerCase())) return undefined;
  const questions = clauses.filter((clause) => clause.text.endsWith("?")).length;
  // A short reply that asks back is a clarification, not an answer.
  if (questions > 0 && (clauses.length <= 2 || questions * 2 >= clauses.length)) return undefined;
  const count = words(reply.toLowerCase()).length;
  const numeric = /\d/.test(reply);
  if (count < (numeric ? 4 : 8)) return undefined;
  const confidence = Math.min(0.95, 0.8 + (count >= 20 ? 0.05 : 0) + (numeric ? 0.05 : 0));
  return { confidence, summary: first.raw };
}

/** Follow-ups the assistant commits to or asks the user to bring back. */
const ASSISTANT_LOOP_CUES: readonly Cue[] = [
  {
    re: /\b(?:i'll|i will|let me) (?:\w+ )?(?:check|look|find|follow up|report back|get back|draft|prepare|remind|send|put together|compare|track)\b/,
    weight: 0.8,
  },
  { re: /\bonce you (?:have|get|send|know)\b.*\b(?:i'll|i can|we can)\b/, weight: 0.8 },
  { re: /\bsend (?:me|them|it|those)\b.*\b(?:i'll|and i|so i)\b/, weight: 0.8 },
  { re: /\bwill do\b/, weight: 0.7 },
];

const BOILERPLATE = /\blet me know if (?:you have|there's|you need) (?:any )?(?:other|more|further)?/;

/** open_loop_created by the reply: the assistant commits to a follow-up or asks for something back. */
export function detectAssistantLoop(reply: string): Hit | undefined {
  const clauses = splitClauses(reply).filter((clause) => !BOILERPLATE.test(clause.text));
  // "Before Thursday, send me…" is a deadline, not a supposition.
  const hit = bestCueHit(clauses, ASSISTANT_LOOP_CUES, "keep");
  return hit === undefined ? undefined : { confidence: hit.confidence, summary: hit.clause.raw };
}
