import { z } from "zod";
import { RigorConfig } from "../contracts/mode-decision.js";
import { fail, ok, type Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import { canonicalPhrase } from "./text.js";

/** Default confidence below which the selector is called: 0.7 keeps ~70%+ precision on what step 1 decides. */
export const DEFAULT_ROUTER_CONFIDENCE_THRESHOLD = 0.7;

const Label = z
  .string()
  .min(1)
  .max(64)
  .regex(/^\S(?:.*\S)?$/, "must not start or end with whitespace");
const Flag = z.string().min(1).max(64);
const Term = z
  .string()
  .min(1)
  .max(200)
  .refine((text) => canonicalPhrase(text).length > 0, "must contain at least one letter or digit");

const RigorLevel = RigorConfig.shape.level;

/** A mode's rigor: a level ("high") or a full `{ level, gates }`; normalized to `RigorConfig`. */
export const ModeRigor = z
  .union([RigorLevel, z.object({ level: RigorLevel, gates: RigorConfig.shape.gates.optional() }).strict()])
  .transform(
    (rigor): RigorConfig =>
      typeof rigor === "string"
        ? { level: rigor, gates: [] }
        : { level: rigor.level, gates: rigor.gates ?? [] },
  );

/** One routable mode: what identifies it (terms, examples) and what its decision carries. */
export const ModeDefinition = z
  .object({
    label: Label,
    /** Shown to the LLM selector; not used by the deterministic steps. */
    description: z.string().min(1).max(500).optional(),
    keywords: z.array(Term).max(1000).optional(),
    phrases: z.array(Term).max(1000).optional(),
    examples: z.array(z.string().min(1).max(2000)).max(5000).optional(),
    domainFlags: z.array(Flag).max(32).optional(),
    clusterIds: z.array(Flag).max(32).optional(),
    rigor: ModeRigor.optional(),
    /** Words that explicitly call this mode (step 0), matched on word boundaries. */
    callWords: z.array(Term).max(100).optional(),
    /** Meta-ops allowed: a re-anchor in this mode is surfaced to the user (flow pack, drift protocol). */
    metaOps: z.boolean().optional(),
  })
  .strict();
export type ModeDefinition = z.infer<typeof ModeDefinition>;
export type ModeDefinitionInput = z.input<typeof ModeDefinition>;

/** Router configuration, also the shape of a mode pack file. */
export const RouterConfig = z
  .object({
    name: z.string().min(1).max(64).optional(),
    modes: z.array(ModeDefinition).min(1).max(1000),
    defaultMode: Label,
    confidenceThreshold: z.number().min(0).max(1).optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const seen = new Map<string, number>();
    config.modes.forEach((mode, index) => {
      const first = seen.get(mode.label);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["modes", index, "label"],
          message: `label "${mode.label}" duplicates modes[${first}].label`,
        });
      } else if (canonicalPhrase(mode.label).length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["modes", index, "label"],
          message: "label needs a letter or digit",
        });
      }
      seen.set(mode.label, first ?? index);
    });
    if (!seen.has(config.defaultMode)) {
      ctx.addIssue({
        code: "custom",
        path: ["defaultMode"],
        message: `defaultMode "${config.defaultMode}" is not the label of any mode`,
      });
    }
  });
export type RouterConfig = z.infer<typeof RouterConfig>;
export type RouterConfigInput = z.input<typeof RouterConfig>;

/** Thread metadata step 1 may use: the last mode (stickiness) and the thread's known domain tags. */
export const RouterThread = z
  .object({
    lastModeLabel: z.string().min(1).max(64).optional(),
    domainTags: z.array(Flag).max(64).optional(),
    messageCount: z.number().int().min(0).optional(),
  })
  // api.md leaves the thread's shape open, so callers pass what their thread record holds: keys the
  // router does not read are dropped; the keys it reads are still checked.
  .strip();
export type RouterThread = z.infer<typeof RouterThread>;

/** Validates a router config object (already parsed JSON). */
export function parseRouterConfig(json: unknown): Result<RouterConfig> {
  const parsed = RouterConfig.safeParse(json);
  return parsed.success ? ok(parsed.data) : fail(...issuesFromZod(parsed.error, [], "drop"));
}

/** Parses a mode pack from JSON text (the server reads the file; core does no I/O). */
export function parseModePack(jsonText: string): Result<RouterConfig> {
  let json: unknown;
  try {
    json = JSON.parse(jsonText);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail({ code: "invalid_json", message: `mode pack is not valid JSON: ${detail}`, path: [] });
  }
  return parseRouterConfig(json);
}
