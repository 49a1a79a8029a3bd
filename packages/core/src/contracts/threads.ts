import { z } from "zod";

/** One thread of a tenant as `GET /v1/threads` lists it (api.md §3 "Threads"). */
export const ThreadSummary = z.object({
  threadId: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  lastModeLabel: z.string().optional(),
  title: z.string().optional(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

/** `GET /v1/threads` answer: newest activity first. */
export const ThreadList = z.object({ threads: z.array(ThreadSummary) });
export type ThreadList = z.infer<typeof ThreadList>;

/** One stored message of a thread; `seq` is its position in the thread, from 1. */
export const ThreadMessage = z.object({
  seq: z.number().int().positive(),
  messageId: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  createdAt: z.string(),
});
export type ThreadMessage = z.infer<typeof ThreadMessage>;

/** `GET /v1/threads/:threadId/messages` answer: oldest first, after `afterSeq`. */
export const ThreadMessagePage = z.object({ messages: z.array(ThreadMessage) });
export type ThreadMessagePage = z.infer<typeof ThreadMessagePage>;
