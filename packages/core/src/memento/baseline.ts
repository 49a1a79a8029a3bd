import type { ThreadMementoV02 } from "../contracts/memento.js";

export interface ResolveBaselineArgs {
  readonly threadId: string;
  /** `context.thread_memento` of the request, if the client sent one. */
  readonly requestMemento?: ThreadMementoV02 | null | undefined;
  /** The latest memento the server stored for the thread. */
  readonly storedMemento?: ThreadMementoV02 | null | undefined;
}

export type BaselineMementoSource = "request" | "stored_latest" | "none";

export type BaselineMemento =
  | { readonly memento: ThreadMementoV02; readonly source: "request" | "stored_latest" }
  | { readonly memento: null; readonly source: "none" };

/**
 * The memento a turn starts from: the request's (the client's view wins), else the stored latest,
 * else none. A memento of another thread is ignored wherever it comes from, so a client cannot graft
 * one thread's summary onto another.
 */
export function resolveBaselineMemento(args: ResolveBaselineArgs): BaselineMemento {
  const { threadId, requestMemento, storedMemento } = args;
  if (requestMemento && requestMemento.threadId === threadId)
    return { memento: requestMemento, source: "request" };
  if (storedMemento && storedMemento.threadId === threadId)
    return { memento: storedMemento, source: "stored_latest" };
  return { memento: null, source: "none" };
}
