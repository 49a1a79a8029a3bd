import type { IncomingMessage, ServerResponse } from "node:http";
import type { RecordedRequest } from "./scripted-upstream.js";

/**
 * How a wire-format upstream (Anthropic, Gemini, Ollama-like) answers one model request. `reply` is
 * what the model says, streamed in `chunks` when the client asked for a stream (or split in three);
 * the upstream wraps it in its own wire format.
 */
export type ReplayStep =
  | {
      readonly kind: "reply";
      readonly text: string;
      /** Stream pieces; default: the text in three. Joined, they must equal `text`. */
      readonly chunks?: readonly string[];
      /** Wait between stream pieces (slow tokens). */
      readonly chunkDelayMs?: number;
      /**
       * `done` (default); `disconnect`: drop the socket after the chunks, before the stop event;
       * `close`: end the response cleanly there, without the stop event.
       */
      readonly end?: "done" | "disconnect" | "close";
      /** The stop reason when the reply is cut short (`length`), else a normal stop. */
      readonly finish?: "stop" | "length";
    }
  /** The provider declines (Anthropic stop_reason `refusal`, Gemini `SAFETY`, OpenAI `refusal`). */
  | { readonly kind: "refusal"; readonly text?: string }
  /** An error status; the body is the provider's own error shape unless given. */
  | {
      readonly kind: "status";
      readonly status: number;
      readonly retryAfter?: number;
      readonly body?: unknown;
    }
  /** A stream that sends an error event mid-way (Anthropic `overloaded_error`...). */
  | { readonly kind: "stream_error"; readonly chunks: readonly string[]; readonly message: string };

/** A step, or a function choosing one from the request. */
export type ReplayEntry = ReplayStep | ((request: RecordedRequest) => ReplayStep);

const ENVELOPE = {
  assistant_text: "Here is the plan.",
  meta: { shape: { arc: "planning", active: ["plan"], parked: [], decisions: [], next: ["draft"] } },
};

/** Realistic replies a model gives when asked for the envelope, by name. */
export const MODEL_BEHAVIOURS = Object.freeze({
  envelope: JSON.stringify(ENVELOPE),
  plainText: "Here is the plan, in plain words.",
  proseAround: `Sure! Here you go:\n${JSON.stringify(ENVELOPE)}\nLet me know if that helps.`,
  truncated: JSON.stringify(ENVELOPE).slice(0, 40),
  codeFenced: `\`\`\`json\n${JSON.stringify(ENVELOPE)}\n\`\`\``,
  wrongKeys: JSON.stringify({ text: "Here is the plan.", metadata: { mood: "calm" } }),
});

/** The step at the head of the script, or the fallback. */
export function nextStep(
  script: ReplayEntry[],
  request: RecordedRequest,
  fallback: (request: RecordedRequest) => ReplayStep,
): ReplayStep {
  const entry = script.shift();
  if (entry === undefined) return fallback(request);
  return typeof entry === "function" ? entry(request) : entry;
}

/** The reply's stream pieces. */
export function chunksOf(step: Extract<ReplayStep, { kind: "reply" }>): readonly string[] {
  if (step.chunks !== undefined) return step.chunks;
  const chars = Array.from(step.text);
  const size = Math.max(1, Math.ceil(chars.length / 3));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** Writes SSE frames one by one, waiting `delayMs` between them; false once the client has gone. */
export async function writeFrames(
  res: ServerResponse,
  frames: readonly string[],
  delayMs = 0,
): Promise<boolean> {
  for (const [index, frame] of frames.entries()) {
    if (res.destroyed) return false;
    if (index > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.write(frame);
  }
  return !res.destroyed;
}

/** Drops the connection once the written frames have left. */
export function disconnect(res: ServerResponse, req: IncomingMessage): void {
  res.write("", () => req.socket.destroy());
}

/** Sends a JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Narrows to a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
