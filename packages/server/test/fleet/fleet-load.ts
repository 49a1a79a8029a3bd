import type { ServeProcess } from "../support/built-cli.js";

/** What one copy of a request got: its status and body, or the network error that ended it. */
export interface CopyResult {
  readonly instance: number;
  readonly status: number | "network_error";
  readonly body: string;
}

/** One logical turn of the load: every copy sent (first try, duplicates, retries) and when it finally succeeded. */
export interface TurnRecord {
  readonly requestId: string;
  readonly threadId: string;
  readonly message: string;
  readonly copies: CopyResult[];
  /** Set when a copy hit the killed process: when the copy that then succeeded answered. */
  lostToKillAt?: number;
  doneAt?: number;
  final?: { readonly messageId: string; readonly content: string };
}

/** The fleet as the load generator sees it: the instances that are up now (a restarted one changes its URL). */
export interface Fleet {
  readonly instances: (ServeProcess | null)[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An instance that is up, other than `not` when another is up; waits while none is. */
async function pickInstance(fleet: Fleet, random: () => number, not?: number): Promise<number> {
  for (;;) {
    const up = fleet.instances.flatMap((s, i) => (s === null ? [] : [i]));
    const choices = up.length > 1 ? up.filter((i) => i !== not) : up;
    if (choices.length > 0) return choices[Math.floor(random() * choices.length)] as number;
    await sleep(50);
  }
}

async function sendOnce(url: string, packet: object): Promise<{ status: number; body: string }> {
  const res = await fetch(new URL("/v1/chat", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(packet),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * Sends one copy of a turn the way the client SDK's queue does: to an instance that is up; on a
 * network error (the instance died) or a retryable answer (409 still in progress, 429, 503) the same
 * packet again to another instance until it gets its answer.
 */
export async function deliver(
  fleet: Fleet,
  random: () => number,
  turn: TurnRecord,
  killedAt: () => number | undefined,
  avoid?: number,
): Promise<void> {
  let instance = await pickInstance(fleet, random, avoid);
  const packet = { requestId: turn.requestId, threadId: turn.threadId, message: turn.message };
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const url = fleet.instances[instance]?.url;
    if (url !== undefined) {
      const got = await sendOnce(url, packet).catch(() => null);
      if (got === null) {
        turn.copies.push({ instance, status: "network_error", body: "" });
        const at = killedAt();
        if (at !== undefined) turn.lostToKillAt ??= at;
      } else {
        turn.copies.push({ instance, status: got.status, body: got.body });
        if (got.status === 200) {
          const reply = JSON.parse(got.body) as { assistant: { messageId: string; content: string } };
          turn.final ??= reply.assistant;
          turn.doneAt = Math.max(turn.doneAt ?? 0, Date.now());
          return;
        }
        if (![409, 429, 503].includes(got.status)) return;
      }
    }
    await sleep(100);
    instance = await pickInstance(fleet, random, instance);
  }
}
