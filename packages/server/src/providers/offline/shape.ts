import type { EnvelopeShape, ThreadMementoShape } from "@solserver/core";
import type { MessageCues } from "./cues.js";
import { clip, firstSentence } from "./text-cues.js";

const MAX_ITEMS = 50;
const MAX_ITEM_CHARS = 200;

/** Inputs of the offline shape: the previous shape (if any), the thread's first message and this turn's cues. */
export interface ShapeInput {
  readonly previous?: ThreadMementoShape;
  readonly firstUserMessage: string;
  readonly ackOnly: boolean;
  readonly cues: MessageCues;
  readonly reminderTitle?: string;
}

/** Derives `meta.shape` deterministically: arc kept (or set from the first user message), items appended. */
export function deriveShape(input: ShapeInput): EnvelopeShape {
  const arc =
    input.previous?.arc ?? (clip(firstSentence(input.firstUserMessage), MAX_ITEM_CHARS) || "Conversation");
  const base: EnvelopeShape = {
    arc,
    active: [...(input.previous?.active ?? [])],
    parked: [...(input.previous?.parked ?? [])],
    decisions: [...(input.previous?.decisions ?? [])],
    next: [...(input.previous?.next ?? [])],
  };
  if (input.ackOnly) return base;
  const { cues } = input;
  const next = [...cues.next, ...(input.reminderTitle === undefined ? [] : [input.reminderTitle])];
  return {
    arc,
    active: append(base.active, cues.active),
    parked: append(base.parked, cues.parked),
    decisions: append(base.decisions, cues.decisions),
    next: append(removeResolved(base.next, cues.resolved), next),
  };
}

function append(list: readonly string[], items: readonly string[]): string[] {
  const out = [...list];
  for (const raw of items) {
    const item = clip(raw, MAX_ITEM_CHARS);
    if (item === "" || out.some((existing) => existing.toLowerCase() === item.toLowerCase())) continue;
    out.push(item);
  }
  return out.slice(-MAX_ITEMS);
}

function removeResolved(list: readonly string[], resolved: readonly string[]): string[] {
  if (resolved.length === 0) return [...list];
  const done = resolved.map((r) => r.toLowerCase());
  return list.filter((item) => {
    const lower = item.toLowerCase();
    return !done.some((d) => lower.includes(d) || d.includes(lower));
  });
}
