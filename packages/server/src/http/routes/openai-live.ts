import type { FastifyReply } from "fastify";
import type { TurnOutcome, TurnStreamHead, TurnStreamSink } from "../../orchestrator/index.js";
import { mapErrorToOpenAi, type OpenAiErrorBody } from "../error-mapping.js";
import { type LazySse, lazySse } from "../sse.js";

/**
 * A facade's live stream: the turn's guarded release sent as it happens, through a sink that cannot
 * retract (the facades have no retract; see README "Streaming on the facades"). The event stream opens
 * on the first released text, so a turn that releases nothing before it ends (a buffered turn, an
 * error, a replay) is answered whole, with every header, by the caller.
 */
export interface LiveFacadeStream {
  readonly sink: TurnStreamSink;
  /** True once the event stream's head was sent (the caller must then end it through `finish`/`fail`). */
  readonly started: boolean;
  /** The text sent so far. */
  readonly shown: string;
  /** The turn's head, once the generate phase began. */
  readonly head: TurnStreamHead | null;
  readonly sse: LazySse;
  /** Ends a started stream with the failure in OpenAI's error shape. */
  fail(error: unknown): void;
}

/** Hooks of one facade's wire format. */
export interface LiveFormat {
  /** Events that open the stream (before the first text). */
  open(sse: LazySse, head: TurnStreamHead): void;
  /** The events of one released piece of text. */
  delta(sse: LazySse, head: TurnStreamHead, text: string): void;
  /** The event that ends a started stream on a failure (OpenAI's error body). */
  fail(sse: LazySse, error: OpenAiErrorBody["error"]): void;
}

/**
 * Opens a live facade stream. `headers` are those known before the turn (thread, request id); the
 * head adds the turn's mode and trace. Proposed actions are known only at the end: the format's last
 * event carries them (`x_sol_actions`).
 */
export function liveFacadeStream(
  reply: FastifyReply,
  headers: Record<string, string>,
  format: LiveFormat,
): LiveFacadeStream {
  let head: TurnStreamHead | null = null;
  let shown = "";
  const sse = lazySse(reply, () => ({
    ...headers,
    ...(head === null ? {} : { "x-sol-mode": head.modeLabel, "x-sol-trace-id": head.traceRunId }),
  }));
  const sink: TurnStreamSink = {
    canRetract: false,
    onHead(value) {
      head = value;
    },
    onEvent(event) {
      // A no-retract sink is never sent a retract (generation.ts continues the shown text instead).
      if (event.type !== "delta" || head === null) return;
      if (!sse.started) format.open(sse, head);
      shown += event.text;
      format.delta(sse, head, event.text);
    },
  };
  return {
    sink,
    sse,
    get started() {
      return sse.started;
    },
    get shown() {
      return shown;
    },
    get head() {
      return head;
    },
    fail(error) {
      format.fail(sse, mapErrorToOpenAi(error).body.error);
      sse.end();
    },
  };
}

/** The proposed actions as the `x-sol-actions` header lists them, for a stream's last event. */
export function actionsOf(outcome: TurnOutcome) {
  return outcome.response.actions.map((a) => ({
    action_id: a.action_id,
    action_kind: a.action_kind,
    action_label: a.action_label,
  }));
}
