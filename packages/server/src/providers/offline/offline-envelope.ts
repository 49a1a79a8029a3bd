import {
  type EnvelopeActionNeeded,
  isAckOnlyMessage,
  type LlmMessage,
  type LlmRequest,
  type ModelOutputEnvelope,
} from "@solserver/core";
import { deriveAffect } from "./affect.js";
import { readCues } from "./cues.js";
import { detectDriverBlockRequest, driverBlockAction } from "./driver-block-request.js";
import type { DueTimeContext } from "./due-time.js";
import { detectMemoryRequest, memoryAction } from "./memory-request.js";
import { detectReminder } from "./reminder.js";
import { reminderAction } from "./reminder-action.js";
import { composeReplyText } from "./reply-text.js";
import { deriveShape } from "./shape.js";
import { deriveSignals } from "./signals.js";
import { clip, normalizeMessage } from "./text-cues.js";

const FOOTER = "(Offline reply: deterministic, no language model was called.)";
const AFFECT_LINES: Readonly<Record<string, string>> = {
  overwhelmed: "That sounds like a lot; one step at a time.",
  anxious: "That sounds stressful; let's keep it concrete.",
  frustrated: "That sounds frustrating.",
  sad: "I'm sorry it feels that way.",
  grateful: "You're welcome.",
};

/** The offline reply for a main/regeneration call, as output envelope v1; a pure function of its inputs. */
export function buildOfflineEnvelope(request: LlmRequest, context: DueTimeContext): ModelOutputEnvelope {
  const hints = request.hints;
  const message = hints?.userMessage ?? lastUser(request.messages) ?? "";
  const firstUser = request.messages.find((m) => m.role === "user")?.content ?? message;
  const ackOnly = isAckOnlyMessage(message);
  const cues = readCues(message);
  const reminder = ackOnly ? undefined : detectReminder(message);
  const memoryFact = ackOnly ? undefined : detectMemoryRequest(message);
  const blockRequest = ackOnly ? undefined : detectDriverBlockRequest(message);
  const affect = deriveAffect(message);

  const head: string[] = [acknowledgement(message, ackOnly)];
  const affectLine = AFFECT_LINES[affect.label];
  if (affectLine !== undefined && !ackOnly) head.push(affectLine);
  if (!ackOnly) {
    for (const d of cues.decisions.slice(0, 3)) head.push(`Decision noted: ${d}.`);
    for (const n of cues.next.slice(0, 3)) head.push(`Added to next steps: ${n}.`);
    for (const p of cues.parked.slice(0, 3)) head.push(`Parked for later: ${p}.`);
    for (const r of cues.resolved.slice(0, 3)) head.push(`Marked as done: ${r}.`);
    if (reminder) {
      const due = reminder.when === undefined ? "" : ` (${reminder.when})`;
      head.push(`I can create a reminder "${reminder.title}"${due} once you approve.`);
    }
    if (memoryFact !== undefined) head.push(`I can remember "${memoryFact}" once you approve.`);
    if (blockRequest !== undefined)
      head.push(`I can keep the rule "${blockRequest.title}" once you approve.`);
    if (hints?.decided !== undefined) head.push(decidedLine(hints.decided));
    else if (cues.question)
      head.push("Offline mode cannot look anything up; your question is noted in the thread.");
  }

  const shape = deriveShape({
    ...(hints?.previousShape === undefined ? {} : { previous: hints.previousShape }),
    firstUserMessage: firstUser,
    ackOnly,
    cues,
    ...(reminder === undefined ? {} : { reminderTitle: reminder.title }),
  });
  return {
    assistant_text: composeReplyText(head, [FOOTER], hints),
    meta: {
      shape,
      affect_signal: affect,
      signals: deriveSignals(cues, ackOnly, reminder?.title),
      ...actionsOf(
        [
          ...(reminder === undefined ? [] : [reminderAction(reminder, context)]),
          ...(blockRequest === undefined ? [] : [driverBlockAction(blockRequest)]),
        ],
        memoryFact,
      ),
    },
  };
}

function actionsOf(
  actions: EnvelopeActionNeeded[],
  memoryFact: string | undefined,
): { action_needed?: EnvelopeActionNeeded[] } {
  const all = memoryFact === undefined ? actions : [...actions, memoryAction(memoryFact)];
  return all.length === 0 ? {} : { action_needed: all };
}

// The server hands the recorded decisions over when the user asks; offline, the reply lists them.
function decidedLine(decided: readonly string[]): string {
  if (decided.length === 0) return "Nothing is decided in this thread yet.";
  return ["Decided so far:", ...decided.map((d) => `- ${d}`)].join("\n");
}

function acknowledgement(message: string, ackOnly: boolean): string {
  if (ackOnly) return "Noted.";
  const restated = clip(normalizeMessage(message), 160);
  return restated === "" ? "I did not receive a message." : `You said: "${restated}"`;
}

function lastUser(messages: readonly LlmMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user") return m.content;
  }
  return undefined;
}
