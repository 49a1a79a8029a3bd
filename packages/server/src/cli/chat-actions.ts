import { randomUUID } from "node:crypto";
import { apiRequest } from "./http-client.js";

/** A proposed action as `sol chat` numbers it for `/approve N` and `/defer N`. */
export interface NumberedAction {
  readonly number: number;
  readonly actionId: string;
  readonly label: string;
}

/** What POST /v1/actions/execute answers (api.md, Actions). */
interface ExecuteResult {
  readonly action_id: string;
  readonly status: string;
  readonly receipt?: { readonly summary?: string };
  readonly error?: { readonly reason?: string };
}

/** The commands `sol chat` handles itself; any other line (a `/mode` too) is a turn. */
export const CHAT_HELP = [
  "commands:",
  "  /approve N   run proposed action N (POST /v1/actions/execute) and print its receipt",
  "  /defer N     defer proposed action N: not now (POST /v1/actions/:id/defer)",
  "  /help        this list",
  "  /quit        leave (also /exit)",
  "anything else is sent as a message.",
];

/** The session's proposals, numbered from 1 in the order the replies proposed them. */
export class ActionBook {
  private readonly actions: NumberedAction[] = [];

  /** Numbers the actions of one reply; returns their lines for the terminal. */
  add(proposed: readonly { action_id: string; action_label: string }[]): string[] {
    return proposed.map((a) => {
      const known = this.actions.find((n) => n.actionId === a.action_id);
      const entry = known ?? {
        number: this.actions.length + 1,
        actionId: a.action_id,
        label: a.action_label,
      };
      if (!known) this.actions.push(entry);
      return `[${entry.number}] needs permission: ${entry.label} (${entry.actionId}) · /approve ${entry.number} or /defer ${entry.number}`;
    });
  }

  /** The action numbered `n`, or undefined. */
  get(n: number): NumberedAction | undefined {
    return this.actions.find((a) => a.number === n);
  }
}

/** A parsed `/approve N` or `/defer N` line; null when the line is not one of them. */
export function parseActionCommand(line: string): { verb: "approve" | "defer"; arg: string } | null {
  const match = /^\/(approve|defer)(?:\s+(\S*))?\s*$/.exec(line);
  return match ? { verb: match[1] as "approve" | "defer", arg: match[2] ?? "" } : null;
}

/** Runs `/approve N` or `/defer N` against the server; returns the lines to print and whether it failed. */
export async function runActionCommand(
  opts: { url: string; apiKey?: string },
  book: ActionBook,
  command: { verb: "approve" | "defer"; arg: string },
): Promise<{ lines: string[]; failed: boolean }> {
  const n = /^\d+$/.test(command.arg) ? Number(command.arg) : Number.NaN;
  const action = book.get(n);
  if (action === undefined) {
    const why = command.arg === "" ? "give its number" : `no proposed action ${command.arg}`;
    return { lines: [`error: /${command.verb} N: ${why}; /help lists commands`], failed: true };
  }
  try {
    if (command.verb === "defer") {
      const path = `/v1/actions/${encodeURIComponent(action.actionId)}/defer`;
      const res = await apiRequest<{ status: string }>(opts.url, "POST", path, {}, opts.apiKey);
      return { lines: [`[${n}] ${action.label}: ${res.status}`], failed: false };
    }
    const body = { action_id: action.actionId, request_id: randomUUID() };
    const res = await apiRequest<ExecuteResult>(opts.url, "POST", "/v1/actions/execute", body, opts.apiKey);
    const lines = [`[${n}] ${action.label}: ${res.status}`];
    if (res.receipt?.summary) lines.push(`receipt: ${res.receipt.summary}`);
    if (res.error?.reason) lines.push(`error: ${res.error.reason}`);
    return { lines, failed: res.status === "failed" };
  } catch (error) {
    return { lines: [`error: [${n}] ${action.label}: ${(error as Error).message}`], failed: true };
  }
}

/** The zone `sol chat` sends as `meta.timezone`: the one given, else the system's; throws when unknown. */
export function resolveTimeZone(given: string | undefined): string {
  const zone = given ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    throw new Error(
      `--timezone ${JSON.stringify(zone)} is not an IANA time zone (such as Europe/Paris or UTC)`,
    );
  }
  return zone;
}
