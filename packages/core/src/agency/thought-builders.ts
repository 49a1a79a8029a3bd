import { z } from "zod";
import type { IdGenerator } from "../clock/clock.js";
import { fail, ok, type Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import {
  acceptConvertEligibleFromBody,
  deriveConvertEligible,
  type ThoughtEmitter,
} from "./convert-eligible.js";
import { canonicalGoalKey } from "./goal-key.js";
import type { ExtractedGoalSource } from "./goal-tag.js";
import { type SanitizedOutput, sanitizeLLMOutput } from "./sanitizer.js";
import {
  ClientMetadata,
  type Novelty,
  THOUGHT_TEXT_MAX,
  type Thought,
  type ThoughtMetadata,
} from "./thought.js";

/** Body of `POST /v1/thoughts`. Only `convertEligible` may steer the pipeline, and only in dev. */
export const ThoughtRequestBody = z
  .object({
    text: z.string().min(1).max(THOUGHT_TEXT_MAX),
    source: z.string().min(1).max(64).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    convertEligible: z.boolean().optional(),
  })
  .strict();
export type ThoughtRequestBody = z.infer<typeof ThoughtRequestBody>;

const CLIENT_METADATA_MAX_KEYS = 32;

/** Keeps the primitive entries of client metadata that fit `ClientMetadata`; drops the rest. */
function clientMetadata(raw: Record<string, unknown>): ClientMetadata {
  const kept: ClientMetadata = {};
  let n = 0;
  for (const [key, value] of Object.entries(raw)) {
    if (n >= CLIENT_METADATA_MAX_KEYS) break;
    const one = ClientMetadata.safeParse({ [key]: value });
    if (one.success) {
      Object.assign(kept, one.data);
      n++;
    }
  }
  return kept;
}

/** Metadata a sanitized text yields: goal, intent, goalKey (never empty) and the goal's source. */
function metadataFromSanitized(s: SanitizedOutput, goalSource: ExtractedGoalSource): ThoughtMetadata {
  const goalKey = s.goal === null ? "" : canonicalGoalKey(s.goal.action, s.goal.target);
  return {
    ...(s.goal === null ? {} : { extractedGoal: s.goal, extractedGoalSource: goalSource }),
    ...(goalKey === "" ? {} : { goalKey }),
    ...(s.intent === null ? {} : { extractedIntent: s.intent }),
    ...(s.intentParse === null ? {} : { intentParse: s.intentParse }),
    ...(s.goalFailReason === undefined || s.goalFailReason === "no_tag"
      ? {}
      : { goalFailReason: s.goalFailReason }),
  };
}

export interface LlmThoughtOptions {
  readonly ids: IdGenerator;
  readonly nowMs: number;
  readonly cognitiveSystem?: string;
  /** `high` for a fresh call (default), `medium` for a heartbeat-escape call. */
  readonly novelty?: Exclude<Novelty, "low">;
}

/** Sanitizes raw model output into a thought; convertEligible follows `deriveConvertEligible`. */
export function createLlmThought(
  raw: string,
  options: LlmThoughtOptions,
): { thought: Thought; sanitized: SanitizedOutput } {
  const sanitized = sanitizeLLMOutput(raw);
  const novelty = options.novelty ?? "high";
  const emittedBy: ThoughtEmitter = "llm";
  const thought: Thought = {
    id: options.ids("thought"),
    text: sanitized.text.slice(0, THOUGHT_TEXT_MAX),
    source: "llm",
    ...(options.cognitiveSystem === undefined ? {} : { cognitiveSystem: options.cognitiveSystem }),
    novelty,
    convertEligible: deriveConvertEligible({
      emittedBy,
      extractedGoal: sanitized.goal,
      extractedIntent: sanitized.intent,
      novelty,
    }),
    tags: ["llm"],
    metadata: metadataFromSanitized(sanitized, "llm"),
    createdAtMs: options.nowMs,
  };
  return { thought, sanitized };
}

export interface RequestThoughtOptions {
  readonly ids: IdGenerator;
  readonly nowMs: number;
  readonly isProduction: boolean;
}

/**
 * Builds a thought from a `POST /v1/thoughts` body. The text is sanitized (a `[GOAL: ...]` tag in
 * it becomes the goal); body metadata is kept only as opaque `metadata.client` (primitive values);
 * nothing else in the body can set goalKey, extractedGoal or novelty. `convertEligible`
 * is taken from the body only outside production (`acceptConvertEligibleFromBody`).
 */
export function createThoughtFromRequest(body: unknown, options: RequestThoughtOptions): Result<Thought> {
  const parsed = ThoughtRequestBody.safeParse(body);
  if (!parsed.success) return fail(...issuesFromZod(parsed.error));
  const data = parsed.data;
  const sanitized = sanitizeLLMOutput(data.text);
  const injected = acceptConvertEligibleFromBody(data, options);
  return ok({
    id: options.ids("thought"),
    text: sanitized.text.slice(0, THOUGHT_TEXT_MAX),
    source: data.source ?? "api",
    novelty: "high",
    ...(injected === undefined ? {} : { convertEligible: injected }),
    tags: ["api"],
    metadata: {
      ...metadataFromSanitized(sanitized, "api"),
      ...(data.metadata === undefined ? {} : { client: clientMetadata(data.metadata) }),
    },
    createdAtMs: options.nowMs,
  });
}
