import { z } from "zod";

/** A block version: a string such as "1" or "1.2.0", or a non-negative integer. */
export const DriverBlockVersion = z.union([z.string().min(1).max(32), z.number().int().nonnegative()]);
export type DriverBlockVersion = z.infer<typeof DriverBlockVersion>;

export const DriverBlockRef = z
  .object({
    id: z.string().min(1).max(64),
    version: DriverBlockVersion,
  })
  .strict();
export type DriverBlockRef = z.infer<typeof DriverBlockRef>;

export const Enforcement = z.enum(["strict", "warn", "off"]);
export type Enforcement = z.infer<typeof Enforcement>;

const Pattern = z.string().min(1).max(200);

/** Patterns a reply is checked against; case-insensitive, "a/b" means a or b. */
export const DriverBlockValidators = z
  .object({
    required: z.array(Pattern).max(20).optional(),
    mustNot: z.array(Pattern).max(20).optional(),
    mustHaveAny: z.array(z.array(Pattern).min(1).max(20)).max(10).optional(),
  })
  .strict();
export type DriverBlockValidators = z.infer<typeof DriverBlockValidators>;

// A blank name is never found in a reply (hasSection), so a block requiring one would fail every reply.
const SectionName = z
  .string()
  .min(1)
  .max(80)
  .refine((name) => name.trim().length > 0, { message: "A section name must not be blank" });

export const DriverBlockOutputContract = z
  .object({
    requiredSections: z.array(SectionName).max(10).optional(),
  })
  .strict();
export type DriverBlockOutputContract = z.infer<typeof DriverBlockOutputContract>;

export const ActionExpectation = z
  .object({
    when: z.string().min(1).max(200),
    require: z.string().min(1).max(200),
  })
  .strict();
export type ActionExpectation = z.infer<typeof ActionExpectation>;

/** A user-owned micro-protocol: compiles into prompt constraints, an output contract and validators. */
export const DriverBlock = z
  .object({
    id: z.string().min(1).max(64),
    version: DriverBlockVersion,
    /** A label for people (optional: no document requires one, and nothing in the prompt uses it). */
    title: z.string().min(1).max(120).optional(),
    scope: z.enum(["system", "user"]).default("user"),
    enforcement: Enforcement.default("strict"),
    description: z.string().max(1000).optional(),
    appliesToModes: z.array(z.string().min(1).max(64)).max(16).optional(),
    promptConstraints: z.array(z.string().min(1).max(500)).max(10).default([]),
    outputContract: DriverBlockOutputContract.optional(),
    validators: DriverBlockValidators.optional(),
    actionExpectations: z.array(ActionExpectation).max(10).optional(),
  })
  .strict();
export type DriverBlock = z.infer<typeof DriverBlock>;
export type DriverBlockInput = z.input<typeof DriverBlock>;

/** A stored (runtime-created) Driver Block as `/v1/driver-blocks` shows it. */
export const DriverBlockView = z
  .object({
    id: z.string(),
    /** The store's version: 1, then +1 each time an approval changed the block. */
    version: z.number().int().positive(),
    enabled: z.boolean(),
    hash: z.string(),
    /** What the block requires of replies, in 1–3 lines for people. */
    summary: z.array(z.string()),
    block: DriverBlock,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();
export type DriverBlockView = z.infer<typeof DriverBlockView>;

export const DriverBlockList = z.object({ driverBlocks: z.array(DriverBlockView) }).strict();
export type DriverBlockList = z.infer<typeof DriverBlockList>;

export const DriverBlockEnvelope = z.object({ driverBlock: DriverBlockView }).strict();
export type DriverBlockEnvelope = z.infer<typeof DriverBlockEnvelope>;

/** `PATCH /v1/driver-blocks/:id`: turn a stored block on or off. */
export const DriverBlockPatch = z.object({ enabled: z.boolean() }).strict();
export type DriverBlockPatch = z.infer<typeof DriverBlockPatch>;
