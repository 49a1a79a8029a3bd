import { z } from "zod";

/** Who wrote a memory. */
export const MemorySourceSchema = z.enum(["user", "assistant", "import"]);

const DomainFlags = z.array(z.string().min(1).max(64)).max(32);

/** An explicit memory of the tenant (api.md §3 "Memories"). */
export const Memory = z
  .object({
    memoryId: z.string(),
    text: z.string(),
    summary: z.string(),
    domainFlags: z.array(z.string()),
    threadId: z.string().optional(),
    source: MemorySourceSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();
export type Memory = z.infer<typeof Memory>;

/** The body of `POST /v1/memories`. */
export const MemoryInput = z
  .object({
    requestId: z.string().min(1).max(128),
    text: z.string().trim().min(1).max(4000),
    summary: z.string().trim().min(1).max(400).optional(),
    domainFlags: DomainFlags.optional(),
    threadId: z.string().min(1).max(128).optional(),
    source: MemorySourceSchema.optional(),
  })
  .strict();
export type MemoryInput = z.infer<typeof MemoryInput>;

/** The answer of `POST /v1/memories`. */
export const MemoryCreated = z.object({ memory: Memory }).strict();
export type MemoryCreated = z.infer<typeof MemoryCreated>;

/** The answer of `GET /v1/memories`: `score` is set when the list was ranked for a query. */
export const MemoryList = z
  .object({ memories: z.array(Memory.extend({ score: z.number().optional() }).strict()) })
  .strict();
export type MemoryList = z.infer<typeof MemoryList>;

/** What a turn's retrieval injected: memory summaries (or other threads' mementos, `thread:<id>`). */
export const TurnRetrieval = z
  .object({
    memories: z.array(z.object({ memoryId: z.string(), summary: z.string(), score: z.number() }).strict()),
  })
  .strict();
export type TurnRetrieval = z.infer<typeof TurnRetrieval>;

/** The payload of a proposed `save_memory` action (other keys a model adds are dropped). */
export const SaveMemoryPayload = z.object({
  text: z.string().trim().min(1).max(4000),
  summary: z.string().trim().min(1).max(400).optional(),
  domainFlags: DomainFlags.optional(),
});
export type SaveMemoryPayload = z.infer<typeof SaveMemoryPayload>;
