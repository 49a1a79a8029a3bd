/** What a streamed turn tells its caller while the model produces the reply (api.md §3 event stream). */
export type TurnStreamEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "retract"; readonly reason: string };

/** Where a streamed turn sends its events; passed in the turn call by routes that stream. */
export interface TurnStreamSink {
  onEvent(event: TurnStreamEvent): void;
}

/** Tracks what a sink has shown since the last retract, so the end can be reconciled with the reply. */
export interface ShownText {
  readonly sink: TurnStreamSink;
  /** The text shown since the last retract. */
  shown(): string;
  delta(text: string): void;
  retract(reason: string): void;
  /** Makes the shown text equal `text`: the missing rest as a delta, or a retract and the whole text. */
  settle(text: string, reason: string): void;
}

/** Wraps a sink with the bookkeeping of what it has shown. */
export function showing(sink: TurnStreamSink): ShownText {
  let shown = "";
  const api: ShownText = {
    sink,
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
