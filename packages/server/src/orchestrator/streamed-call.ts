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
  abortOnViolation: boolean,
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
  const feed = (text: string) => {
    if (text === "") return;
    const step = guard.push(text);
    if (violation === null) show.delta(step.release);
    violation = step.violation;
  };
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
    if (violation !== null && abortOnViolation) {
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
  feed(parser.end());
  return { response: done, violation, aborted: false, guardedText: guard.text };
}
