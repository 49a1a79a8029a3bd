import { readLocalJson, removeLocal, writeLocalJson } from "./local-json.js";

const THREAD_KEY = "sol.threadId";
const THREADS_KEY = "sol.threads";
const API_KEY_KEY = "sol.apiKey";
const MAX_THREADS = 50;

/** A new thread id (`thr_` + random UUID). */
export function newThreadId(): string {
  return `thr_${crypto.randomUUID()}`;
}

/** The persisted current thread id; a fresh one is created and stored on first use. */
export function loadThreadId(): string {
  const stored = readLocalJson(THREAD_KEY);
  if (typeof stored === "string" && stored.length > 0 && stored.length <= 128) return stored;
  const id = newThreadId();
  saveThreadId(id);
  return id;
}

/** Makes `threadId` current and remembers it in the thread list (most recent first). */
export function saveThreadId(threadId: string): void {
  writeLocalJson(THREAD_KEY, threadId);
  writeLocalJson(
    THREADS_KEY,
    [threadId, ...loadThreadIds().filter((t) => t !== threadId)].slice(0, MAX_THREADS),
  );
}

/** Forgets a thread id (after it was deleted on the server). */
export function forgetThreadId(threadId: string): void {
  writeLocalJson(
    THREADS_KEY,
    loadThreadIds().filter((t) => t !== threadId),
  );
}

/** Known thread ids, most recent first. */
export function loadThreadIds(): string[] {
  const stored = readLocalJson(THREADS_KEY);
  return Array.isArray(stored) ? stored.filter((t): t is string => typeof t === "string") : [];
}

/** The API key sent as `Authorization: Bearer`, or null when none is set. */
export function loadApiKey(): string | null {
  const stored = readLocalJson(API_KEY_KEY);
  return typeof stored === "string" && stored.length > 0 ? stored : null;
}

/** Stores the API key; an empty string clears it. */
export function saveApiKey(apiKey: string): void {
  if (apiKey.length === 0) removeLocal(API_KEY_KEY);
  else writeLocalJson(API_KEY_KEY, apiKey);
}
