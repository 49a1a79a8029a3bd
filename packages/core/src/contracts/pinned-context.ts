import { z } from "zod";

/** The text a client pins for its turns to reference by `pinnedContextRef {id, version, hash}`. */
export const PinnedContextInput = z.object({ content: z.string().min(1).max(20_000) }).strict();
export type PinnedContextInput = z.infer<typeof PinnedContextInput>;

/** One version of a pinned context; `hash` is the SHA-256 (hex) of `content`. */
export const PinnedContext = z
  .object({
    id: z.string().min(1).max(128),
    version: z.number().int().positive(),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    content: z.string(),
    createdAt: z.string(),
  })
  .strict();
export type PinnedContext = z.infer<typeof PinnedContext>;

/** The answer of `PUT` and `GET /v1/pinned-contexts/:id`. */
export const PinnedContextEnvelope = z.object({ pinnedContext: PinnedContext }).strict();
export type PinnedContextEnvelope = z.infer<typeof PinnedContextEnvelope>;

/** One version of a thread's persisted checkpoint, as `GET /v1/threads/:id/checkpoints` shows it. */
export const ThreadCheckpoint = z
  .object({
    checkpointId: z.string(),
    threadId: z.string(),
    version: z.number().int().positive(),
    contentHash: z.string(),
    trigger: z.array(z.string()),
    capsule: z.string(),
    createdAt: z.string(),
  })
  .strict();
export type ThreadCheckpoint = z.infer<typeof ThreadCheckpoint>;

/** The thread's latest checkpoint (none, or one: a thread keeps one id with versions). */
export const ThreadCheckpointList = z.object({ checkpoints: z.array(ThreadCheckpoint) }).strict();
export type ThreadCheckpointList = z.infer<typeof ThreadCheckpointList>;
