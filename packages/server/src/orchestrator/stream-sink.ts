/** What a streamed turn tells its caller while the model produces the reply (api.md §3 event stream). */
export type TurnStreamEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "retract"; readonly reason: string };

/** What a streamed turn knows of itself before its reply: facades name their stream by it. */
export interface TurnStreamHead {
  readonly transmissionId: string;
  readonly traceRunId: string;
  /** When the turn's transmission was claimed (ISO 8601). */
  readonly createdAt: string;
  readonly modeLabel: string;
}

/** Where a streamed turn sends its events; passed in the turn call by routes that stream. */
export interface TurnStreamSink {
  onEvent(event: TurnStreamEvent): void;
  /**
   * False for a sink that cannot withdraw text (the OpenAI facades): the turn then streams only what no
   * regeneration can take back, and a regeneration continues the text already shown (default true).
   */
  readonly canRetract?: boolean;
  /** Called once before the generate phase, so the stream's head can name the turn. */
  onHead?(head: TurnStreamHead): void;
}

/** Tracks what a sink has shown since the last retract, so the end can be reconciled with the reply. */
export interface ShownText {
  readonly sink: TurnStreamSink;
  /** False when the sink cannot withdraw text (see TurnStreamSink.canRetract). */
  readonly canRetract: boolean;
  /** The text shown since the last retract. */
  shown(): string;
  delta(text: string): void;
  retract(reason: string): void;
  /**
   * Makes the shown text equal `text`: the missing rest as a delta, or a retract and the whole text.
   * A sink that cannot retract is only ever settled on a continuation of what it showed.
   */
  settle(text: string, reason: string): void;
}

/** Wraps a sink with the bookkeeping of what it has shown. */
export function showing(sink: TurnStreamSink): ShownText {
  let shown = "";
  const api: ShownText = {
    sink,
    canRetract: sink.canRetract !== false,
    shown: () => shown,
    delta(text) {
      if (text === "") return;
      shown += text;
      sink.onEvent({ type: "delta", text });
    },
    retract(reason) {
      shown = "";
      sink.onEvent({ type: "retract", reason });
    },
    settle(text, reason) {
      if (text === shown) return;
      if (text.startsWith(shown)) {
        api.delta(text.slice(shown.length));
        return;
      }
      api.retract(reason);
      api.delta(text);
    },
  };
  return api;
}
