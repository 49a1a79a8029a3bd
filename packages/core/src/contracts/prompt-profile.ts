import { z } from "zod";

export const PromptModuleKind = z.enum(["mounted_law", "mode_contract", "style", "output_constraints"]);
export type PromptModuleKind = z.infer<typeof PromptModuleKind>;

export const PromptModule = z
  .object({
    id: z.string().min(1).max(64),
    version: z.string().min(1).max(32),
    kind: PromptModuleKind,
    content: z.string().min(1).max(20_000),
  })
  .strict();
export type PromptModule = z.infer<typeof PromptModule>;

/** Server-side registry entry of prompt modules by version. */
export const PromptProfile = z
  .object({
    profileId: z.string().min(1).max(64),
    /** A profile this one builds on: its modules apply unless this profile has one with the same id (or a law of its own). */
    extends: z.string().min(1).max(64).optional(),
    modules: z.array(PromptModule).min(1).max(64),
  })
  .strict();
export type PromptProfile = z.infer<typeof PromptProfile>;
