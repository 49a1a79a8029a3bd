import { z } from "zod";
import { DriverBlock, DriverBlockRef } from "./driver-block.js";
import { ThreadMementoV02 } from "./memento.js";

const Id = z.string().min(1).max(128);

export const Budgets = z
  .object({
    maxInputTokens: z.number().int().positive().max(2_000_000).optional(),
    maxOutputTokens: z.number().int().positive().max(200_000).optional(),
    maxRegenerations: z.number().int().min(0).max(1).optional(),
    timeoutMs: z.number().int().positive().max(600_000).optional(),
  })
  .strict();
export type Budgets = z.infer<typeof Budgets>;

export const PinnedContextRef = z
  .object({
    id: z.string().min(1).max(128),
    version: z.union([z.string().min(1).max(32), z.number().int().nonnegative()]),
    hash: z.string().min(1).max(128),
  })
  .strict();
export type PinnedContextRef = z.infer<typeof PinnedContextRef>;

export const PacketContext = z
  .object({
    thread_memento: ThreadMementoV02.optional(),
  })
  .strict();
export type PacketContext = z.infer<typeof PacketContext>;

/** The body of `POST /v1/chat`: one user turn plus what the client knows about its thread. */
export const PacketInput = z
  .object({
    requestId: Id,
    threadId: Id,
    message: z.string().min(1).max(20_000),
    packetId: Id.optional(),
    packetType: z.literal("chat").default("chat"),
    messageIds: z.array(Id).max(200).optional(),
    checkpointIds: z.array(Id).max(50).optional(),
    budgets: Budgets.optional(),
    pinnedContextRef: PinnedContextRef.optional(),
    driverBlockMode: z.enum(["default", "custom"]).optional(),
    // Hard caps only bound the payload; the policy engine enforces the product limits with a named error.
    driverBlockRefs: z.array(DriverBlockRef).max(100).optional(),
    driverBlockInline: z.array(DriverBlock).max(100).optional(),
    context: PacketContext.optional(),
    thread_context_mode: z.enum(["off", "auto"]).default("auto"),
    traceConfig: z
      .object({ level: z.enum(["info", "debug"]).default("info") })
      .strict()
      .optional(),
    meta: z.record(z.string().max(64), z.unknown()).optional(),
  })
  .strict();
export type PacketInput = z.infer<typeof PacketInput>;
/** What a client sends (defaults not yet applied). */
export type PacketInputBody = z.input<typeof PacketInput>;
