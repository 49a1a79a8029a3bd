import {
  createEnvelopeStreamParser,
  createStreamGuard,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamChunk,
  SolError,
  type StreamGuardViolation,
} from "@solserver/core";
import type { GenerationInput } from "./generation.js";
import type { ShownText } from "./stream-sink.js";

/** One streamed model call as the generate phase sees it. */
export interface StreamedCall {
  /** The whole response; for a call stopped at a violation, the reply text read so far. */
  readonly response: LlmResponse;
  /** The prefix violation that stopped the release, if any. */
  readonly violation: StreamGuardViolation | null;
  /** True when the upstream call was aborted at the violation (a regeneration follows). */
  readonly aborted: boolean;
  /** The reply text the guard saw (decoded assistant_text), whole unless aborted. */
  readonly guardedText: string;
}

/** How one streamed call releases text. */
export interface StreamRelease {
  /** Cancel the upstream call at a violation (a regeneration follows). */
  readonly abortOnViolation: boolean;
  /** Release only the text of a JSON envelope; plain-text output is held to the end (no-retract sinks). */
  readonly jsonOnly?: boolean;
  /**
   * Text already shown that this call continues (a no-retract sink's regeneration). The guard reads it
   * first, so a phrase across the seam is caught; a reply that repeats it has the repeat dropped.
   */
  readonly continues?: string;
}

/**
 * Calls the provider's stream and passes the reply text, read out of the streamed envelope, through
 * the prefix guard to the sink as it is released. At a violation the release stops before the
 * violating text; when `abortOnViolation` the upstream call is cancelled there, otherwise the rest is
 * read (and held) so the turn has the whole reply.
 */
export async function streamedCall(
  input: GenerationInput,
  request: LlmRequest,
  show: ShownText,
  release: StreamRelease,
): Promise<StreamedCall> {
  const stream = input.provider.stream;
  if (stream === undefined) throw new SolError("internal", "The provider cannot stream.");
  const parser = createEnvelopeStreamParser();
  const guard = createStreamGuard({
    policy: input.policy,
    modeDecision: input.modeDecision,
    modes: input.modes,
  });
  const controller = new AbortController();
  const signal = request.signal
    ? AbortSignal.any([request.signal as AbortSignal, controller.signal])
    : controller.signal;
  let violation: StreamGuardViolation | null = null;
  let raw = "";
  const continues = release.continues ?? "";
  // The guard re-releases the shown text it read first; those characters are not sent again.
  let skip = continues.length;
  let opening = continues === "" ? null : "";
  const guarded = (text: string) => {
    if (text === "") return;
    const step = guard.push(text);
    let out = step.release;
    if (skip > 0) {
      const dropped = Math.min(skip, out.length);
      skip -= dropped;
      out = out.slice(dropped);
    }
    if (violation === null && !(release.jsonOnly === true && parser.mode === "plain")) show.delta(out);
    violation = step.violation;
  };
  const feed = (text: string, last = false) => {
    if (opening === null) return guarded(text);
    opening += text;
    if (opening.length < continues.length && !last) return;
    const rest = opening.startsWith(continues) ? opening.slice(continues.length) : opening;
    opening = null;
    guarded(rest);
  };
  guarded(continues);
  const iterator = stream.call(input.provider, { ...request, signal })[Symbol.asyncIterator]();
  let done: LlmResponse | null = null;
  for (;;) {
    const next: IteratorResult<LlmStreamChunk> = await iterator.next();
    if (next.done === true) break;
    const chunk = next.value;
    if (chunk.type === "done") {
      done = chunk.response;
      break;
    }
    raw += chunk.text;
    feed(parser.push(chunk.text));
    if (violation !== null && release.abortOnViolation) {
      controller.abort();
      await iterator.return?.().catch(() => undefined);
      const partial: LlmResponse = {
        text: raw,
        provider: input.provider.name,
        model: input.provider.model,
        offline: false,
      };
      return { response: partial, violation, aborted: true, guardedText: guard.text };
    }
  }
  if (done === null) throw new SolError("provider_error", "The provider's stream ended without a reply.");
  feed(parser.end(), true);
  return { response: done, violation, aborted: false, guardedText: guard.text };
}
