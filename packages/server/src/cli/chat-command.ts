import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline/promises";
import type { ChatResponse, ThreadMementoV02 } from "@solserver/core";
import {
  ActionBook,
  CHAT_HELP,
  parseActionCommand,
  resolveTimeZone,
  runActionCommand,
} from "./chat-actions.js";
import { apiRequest } from "./http-client.js";

const SHAPE_KEYS = ["arc", "active", "parked", "decisions", "next"] as const;

/** Lines describing what changed between two mementos (empty when nothing did). */
export function describeMementoChange(
  before: ThreadMementoV02 | null,
  after: ThreadMementoV02 | null,
): string[] {
  if (!after) return [];
  if (!before) return [`memento created: arc "${after.arc}"`];
  const lines: string[] = [];
  for (const key of SHAPE_KEYS) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(after[key]);
    if (a !== b) lines.push(`${key}: ${a} -> ${b}`);
  }
  if (before.affect.rollup.phase !== after.affect.rollup.phase) {
    lines.push(`affect phase: ${before.affect.rollup.phase} -> ${after.affect.rollup.phase}`);
  }
  return lines;
}

/** Formats the control-plane facts of one turn for the terminal. */
export function describeTurn(res: ChatResponse): string {
  const m = res.modeDecision;
  return [
    `mode ${m.modeLabel} (step ${m.step}, confidence ${m.confidence.toFixed(2)})`,
    `breakpoint ${res.breakpoint.decision.toUpperCase()}${res.breakpoint.peakGuardrailActive ? " [peak guardrail]" : ""}`,
    `model calls ${res.usage.modelCalls}`,
    `trace ${res.trace.traceRunId}`,
  ].join(" | ");
}

/** One memory a turn injected, as the response's `retrieval.memories` lists it (api.md §3). */
interface RetrievedMemory {
  readonly memoryId: string;
  readonly summary: string;
  readonly score: number;
}

function isRetrievedMemory(value: unknown): value is RetrievedMemory {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.memoryId === "string" && typeof m.summary === "string" && typeof m.score === "number";
}

/**
 * Lines naming what the turn retrieved (`retrieval.memories`: summary and score, best first as the
 * server ranked them); none when the response has no retrieval or it retrieved nothing. Read
 * structurally, so a server without the field (or an entry of another shape) just shows nothing.
 */
export function describeRetrieval(res: unknown): string[] {
  const retrieval = (res as { retrieval?: { memories?: unknown } } | null)?.retrieval;
  const memories = Array.isArray(retrieval?.memories) ? retrieval.memories.filter(isRetrievedMemory) : [];
  return memories.map((m) => `retrieved ${m.score.toFixed(2)} ${JSON.stringify(m.summary)} (${m.memoryId})`);
}

/**
 * `sol chat`: a REPL against a running server. Lines are read through the async iterator, which
 * buffers them, so input piped faster than the server answers is queued rather than dropped.
 */
export async function runChat(opts: {
  url: string;
  thread?: string;
  apiKey?: string;
  timezone?: string;
}): Promise<void> {
  const session: ChatSession = { ...opts, timezone: resolveTimeZone(opts.timezone), book: new ActionBook() };
  const threadId = opts.thread ?? `thread_${randomUUID().slice(0, 8)}`;
  // Changes are shown against the thread's memento: a resumed thread already has one. Read before
  // the line reader starts, since lines it reads while nothing iterates it would be lost.
  let memento = opts.thread ? await currentMemento(opts, threadId) : null;
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: interactive });
  rl.setPrompt("you> ");
  process.stdout.write(
    `sol chat on ${opts.url}, thread ${threadId}, time zone ${session.timezone}. Type /help for commands, /quit to leave.\n`,
  );
  try {
    if (interactive) rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === "/quit" || line === "/exit") break;
      if (line) {
        // Piped input is not echoed by a terminal; print it so the transcript reads as a dialogue.
        if (!interactive) process.stdout.write(`you> ${line}\n`);
        if (!(await runCommand(session, line))) memento = await sendTurn(session, threadId, line, memento);
      }
      if (interactive) rl.prompt();
    }
  } finally {
    rl.close();
  }
}

/** The options of one `sol chat` run and the actions its replies proposed. */
interface ChatSession {
  readonly url: string;
  readonly apiKey?: string;
  readonly timezone: string;
  readonly book: ActionBook;
}

/** Handles `/help`, `/approve N` and `/defer N`; false when the line is a message to send. */
async function runCommand(session: ChatSession, line: string): Promise<boolean> {
  if (line === "/help") {
    for (const help of CHAT_HELP) process.stdout.write(`  ${help}\n`);
    return true;
  }
  const command = parseActionCommand(line);
  if (command === null) return false;
  const result = await runActionCommand(session, session.book, command);
  for (const out of result.lines) process.stdout.write(`  ${out}\n`);
  if (result.failed) process.exitCode = 1;
  return true;
}

/** The thread's memento now, or null (none yet, or unreadable: the first turn reports the error). */
async function currentMemento(
  opts: { url: string; apiKey?: string },
  threadId: string,
): Promise<ThreadMementoV02 | null> {
  try {
    return await apiRequest<ThreadMementoV02>(
      opts.url,
      "GET",
      `/v1/threads/${encodeURIComponent(threadId)}/memento`,
      undefined,
      opts.apiKey,
    );
  } catch {
    return null;
  }
}

/** Sends one line as a turn and prints the reply and its control-plane facts; returns the memento. */
async function sendTurn(
  opts: ChatSession,
  threadId: string,
  line: string,
  memento: ThreadMementoV02 | null,
): Promise<ThreadMementoV02 | null> {
  try {
    const res = await apiRequest<ChatResponse>(
      opts.url,
      "POST",
      "/v1/chat",
      { requestId: randomUUID(), threadId, message: line, meta: { timezone: opts.timezone } },
      opts.apiKey,
    );
    process.stdout.write(`sol> ${res.assistant.content}\n  ${describeTurn(res)}\n`);
    for (const line of describeRetrieval(res)) process.stdout.write(`  ${line}\n`);
    for (const change of describeMementoChange(memento, res.threadMemento))
      process.stdout.write(`  ${change}\n`);
    for (const proposal of opts.book.add(res.actions)) process.stdout.write(`  ${proposal}\n`);
    return res.threadMemento ?? memento;
  } catch (error) {
    process.stdout.write(`  error: ${(error as Error).message}\n`);
    // The session goes on, but a script piping lines in can see that a turn failed.
    process.exitCode = 1;
    return memento;
  }
}
