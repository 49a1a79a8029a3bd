import { ACK_TOKENS, isAckOnlyMessage } from "../breakpoint/index.js";

// Courtesy words that, next to the breakpoint ack tokens, still make a message a pure acknowledgment.
const COURTESY_TOKENS: ReadonlySet<string> = new Set([
  "thank",
  "you",
  "great",
  "perfect",
  "awesome",
  "nice",
  "noted",
  "makes",
  "sense",
  "alright",
  "thing",
  "a",
  "lot",
  "bunch",
  "so",
  "much",
  "to",
  "me",
  "yes",
  "yeah",
  "understood",
  "ty",
  "that",
  "helps",
  "helped",
  "helpful",
  "was",
  "very",
  "really",
]);

/** Confidence that the message is only an acknowledgment: 0.95 by the breakpoint rule, 0.85 with courtesy words, else 0. */
export function ackConfidence(message: string): number {
  if (isAckOnlyMessage(message)) return 0.95;
  const tokens = message
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .match(/[\p{L}\p{N}']+/gu);
  if (tokens === null || tokens.length > 8) return 0;
  return tokens.every((token) => ACK_TOKENS.has(token) || COURTESY_TOKENS.has(token)) ? 0.85 : 0;
}
