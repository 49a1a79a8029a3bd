import type { ChatResponse } from "@solserver/core";
import { SolClientError } from "../errors.js";
import { isObject } from "../validate.js";
import { responses } from "./responses.js";
import type { SseMessage } from "./sse.js";
import { checkResponse, errorFromBody } from "./transport.js";

/**
 * What `chatStream` yields (api.md §3, the `/v1/chat` event stream). Every event carries `shown`: the
 * text a reader should see now, i.e. the deltas since the last `retract`, joined. A stream ends with
 * exactly one `final` or one `error`.
 */
export type ChatStreamEvent =
  /** Reply text that passed every check decidable on a prefix; `text` is the new piece. */
  | { readonly type: "delta"; readonly text: string; readonly shown: string }
  /** Discard everything shown so far (a violation was found); the regenerated reply follows. */
  | { readonly type: "retract"; readonly reason: string; readonly shown: "" }
  /** The whole, validated ChatResponse; `shown` is its `assistant.content`. */
  | { readonly type: "final"; readonly response: ChatResponse; readonly shown: string }
  /** The turn failed; `shown` keeps what had been shown (a caller may keep it on screen). */
  | { readonly type: "error"; readonly error: SolClientError; readonly shown: string };

/** Where a streamed reply stands, as `foldStream` accumulates it. */
export type ChatStreamPhase = "waiting" | "streaming" | "revising" | "done" | "failed";

/** A streamed reply folded into what to render now. */
export interface ChatStreamView {
  readonly phase: ChatStreamPhase;
  /** The text to show now (empty right after a retract). */
  readonly text: string;
  /** How many retracts the stream carried. */
  readonly retracts: number;
  /** The reason of the last retract, when there was one. */
  readonly retractReason?: string;
  readonly response?: ChatResponse;
  readonly error?: SolClientError;
}

/** The view before any event arrived. */
export const EMPTY_STREAM_VIEW: ChatStreamView = Object.freeze({ phase: "waiting", text: "", retracts: 0 });

/**
 * Folds one event into the view: deltas grow the text, a retract empties it and marks the reply as
 * being revised until `final`, `final` settles on the response, `error` keeps the text shown.
 */
export function foldStream(view: ChatStreamView, event: ChatStreamEvent): ChatStreamView {
  switch (event.type) {
    case "delta":
      return { ...view, phase: view.phase === "revising" ? "revising" : "streaming", text: event.shown };
    case "retract":
      return {
        ...view,
        phase: "revising",
        text: "",
        retracts: view.retracts + 1,
        retractReason: event.reason,
      };
    case "final":
      return { ...view, phase: "done", text: event.shown, response: event.response };
    case "error":
      return { ...view, phase: "failed", text: event.shown, error: event.error };
  }
}

const contractBreak = (what: string, message: string): SolClientError =>
  new SolClientError("invalid_response", `${what}: ${message}`, { retryable: false });

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `final` event for a whole response (also what a JSON answer to a stream request becomes). */
export function finalEvent(response: ChatResponse): ChatStreamEvent {
  return { type: "final", response, shown: response.assistant.content };
}

/**
 * Turns the server-sent events of a `/v1/chat` stream into typed events as each one arrives, ending
 * after `final` or `error`; a payload that breaks the contract throws invalid_response. Unknown event
 * names are skipped (a newer server may add some).
 */
export async function* chatStreamEvents(
  messages: AsyncIterable<SseMessage>,
  what: string,
  status: number,
): AsyncGenerator<ChatStreamEvent, "ended" | "cut", undefined> {
  let shown = "";
  for await (const message of messages) {
    const data = parseData(message.data);
    if (message.event === "delta") {
      if (!isObject(data) || typeof data.text !== "string") {
        throw contractBreak(what, "a delta event must carry { text }.");
      }
      shown += data.text;
      yield { type: "delta", text: data.text, shown };
    } else if (message.event === "retract") {
      if (!isObject(data) || typeof data.reason !== "string") {
        throw contractBreak(what, "a retract event must carry { reason }.");
      }
      shown = "";
      yield { type: "retract", reason: data.reason, shown: "" };
    } else if (message.event === "final") {
      yield finalEvent(checkResponse(data, responses.chat, what, status));
      return "ended";
    } else if (message.event === "error") {
      yield { type: "error", error: errorFromBody(message.data, what, undefined), shown };
      return "ended";
    }
  }
  return "cut";
}
