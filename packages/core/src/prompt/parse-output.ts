import {
  EnvelopeActionNeeded,
  EnvelopeAffectSignal,
  EnvelopeShape,
  EnvelopeSignal,
  ModelOutputEnvelope,
} from "../contracts/envelope.js";
import { cutText } from "../text/clip.js";

/**
 * How the envelope was obtained: the whole text, a JSON object found inside it, a repaired object,
 * plain text, or (set by a host) the text of an envelope the provider cut off at the token limit.
 */
export type ModelOutputParse = "exact" | "extracted" | "salvaged" | "plain_text" | "truncated";

export interface ParsedModelOutput {
  readonly envelope: ModelOutputEnvelope;
  /** True when the output was not a valid envelope (api.md §4 counts it as a format violation). */
  readonly formatViolation: boolean;
  readonly parse: ModelOutputParse;
}

/** JSON objects tried per output; bounds the work on adversarial text full of braces. */
const MAX_CANDIDATES = 16;

/**
 * Parses a model reply into output envelope v1. Tolerated without a violation: surrounding whitespace,
 * a code fence, leading or trailing prose (the first balanced JSON object that is a valid envelope is
 * used). An object with a string assistant_text but other faults keeps that text and the valid meta
 * parts, cutting a part that only runs over a length limit to fit (violation). Anything else becomes
 * plain-text assistant_text (violation).
 */
export function parseModelOutput(text: string): ParsedModelOutput {
  const trimmed = text.trim();
  let salvage: ModelOutputEnvelope | null = null;
  const starts = objectStarts(trimmed);
  for (let i = 0; i < starts.length && i < MAX_CANDIDATES; i++) {
    const start = starts[i]!;
    const end = balancedEnd(trimmed, start);
    if (end < 0) continue;
    const value = tryJson(trimmed.slice(start, end + 1));
    if (value === undefined) continue;
    const parsed = ModelOutputEnvelope.safeParse(value);
    if (parsed.success) {
      const exact = start === 0 && end === trimmed.length - 1;
      return { envelope: parsed.data, formatViolation: false, parse: exact ? "exact" : "extracted" };
    }
    salvage ??= salvageEnvelope(value);
  }
  if (salvage !== null) return { envelope: salvage, formatViolation: true, parse: "salvaged" };
  return { envelope: { assistant_text: trimmed }, formatViolation: true, parse: "plain_text" };
}

function objectStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf("{"); i >= 0 && starts.length < MAX_CANDIDATES; i = text.indexOf("{", i + 1)) {
    starts.push(i);
  }
  return starts;
}

/** Index of the brace closing the object opened at `start`, string-aware; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text.charAt(i);
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function tryJson(candidate: string): unknown {
  try {
    return JSON.parse(candidate) as unknown;
  } catch {
    return undefined;
  }
}

function salvageEnvelope(value: unknown): ModelOutputEnvelope | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.assistant_text !== "string") return null;
  const rawMeta = record.meta;
  if (typeof rawMeta !== "object" || rawMeta === null) return { assistant_text: record.assistant_text };
  const metaIn = rawMeta as Record<string, unknown>;
  const meta: NonNullable<ModelOutputEnvelope["meta"]> = {};
  const shape = EnvelopeShape.safeParse(withinShapeLimits(metaIn.shape));
  if (shape.success) meta.shape = shape.data;
  const affect = EnvelopeAffectSignal.safeParse(metaIn.affect_signal);
  if (affect.success) meta.affect_signal = affect.data;
  const signals = validItems(
    metaIn.signals,
    (item) => EnvelopeSignal.safeParse(clipFields(item, SIGNAL_TEXT_LIMITS)),
    16,
  );
  if (signals.length > 0) meta.signals = signals;
  const actions = validItems(
    metaIn.action_needed,
    (item) => EnvelopeActionNeeded.safeParse(withinActionLimits(item)),
    5,
  );
  if (actions.length > 0) meta.action_needed = actions;
  return Object.keys(meta).length > 0
    ? { assistant_text: record.assistant_text, meta }
    : { assistant_text: record.assistant_text };
}

function validItems<T>(
  value: unknown,
  parse: (item: unknown) => { success: true; data: T } | { success: false },
  max: number,
): T[] {
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const item of value) {
    const parsed = parse(item);
    if (parsed.success && out.length < max) out.push(parsed.data);
  }
  return out;
}

/*
 * api.md §4 gives the envelope's fields no lengths; the contract's limits (a 200-character shape item,
 * 1..3 summary bullets, a 180-character signal summary...) are the server's. A salvaged part that only
 * runs over them is cut to fit rather than dropped, so a long arc or a fourth bullet does not lose
 * the whole shape update or the proposed action. The reply still counts as a format violation.
 */
const SHAPE_ITEM_CHARS = 200;
const SHAPE_LIST_ITEMS = 50;
const SIGNAL_TEXT_LIMITS = { summary: 180 } as const;
const ACTION_TEXT_LIMITS = {
  action_label: 80,
  action_target: 80,
  action_data_used: 200,
  action_why: 200,
} as const;
const ACTION_BULLETS = 3;
const ACTION_BULLET_CHARS = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string cut to `max` UTF-16 units (never through a surrogate pair); other values unchanged. */
function cutString(value: unknown, max: number): unknown {
  return typeof value === "string" ? cutText(value, max) : value;
}

function clipList(value: unknown, maxItems: number, maxChars: number): unknown {
  return Array.isArray(value) ? value.slice(0, maxItems).map((item) => cutString(item, maxChars)) : value;
}

/** The record with the named string fields cut to their limits (only fields it has). */
function clipFields(value: unknown, limits: Readonly<Record<string, number>>): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, max] of Object.entries(limits)) {
    if (key in out) out[key] = cutString(out[key], max);
  }
  return out;
}

function withinShapeLimits(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  if ("arc" in out) out.arc = cutString(out.arc, SHAPE_ITEM_CHARS);
  for (const key of ["active", "parked", "decisions", "next"] as const) {
    if (key in out) out[key] = clipList(out[key], SHAPE_LIST_ITEMS, SHAPE_ITEM_CHARS);
  }
  return out;
}

function withinActionLimits(value: unknown): unknown {
  const out = clipFields(value, ACTION_TEXT_LIMITS);
  if (!isRecord(out) || !("action_summary_bullets" in out)) return out;
  return {
    ...out,
    action_summary_bullets: clipList(out.action_summary_bullets, ACTION_BULLETS, ACTION_BULLET_CHARS),
  };
}
