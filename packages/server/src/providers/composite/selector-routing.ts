import type { LlmRequest } from "@solserver/core";
import type { StreamingLlmProvider } from "../streaming-provider.js";

/**
 * One provider that sends the routing ladder's selector calls to `selector` (the same provider on a
 * cheaper model, `SOL_SELECTOR_MODEL`) and every other call to `main`.
 */
export function routeSelectorCalls(
  main: StreamingLlmProvider,
  selector: StreamingLlmProvider,
): StreamingLlmProvider {
  const pick = (request: LlmRequest) => (request.purpose === "selector" ? selector : main);
  return Object.freeze({
    name: main.name,
    model: main.model,
    complete: (request: LlmRequest) => pick(request).complete(request),
    stream: (request: LlmRequest) => pick(request).stream(request),
  });
}
