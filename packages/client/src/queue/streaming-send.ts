import type { ChatStreamEvent } from "../http/chat-stream.js";
import type { SolClient } from "../http/sol-client.js";
import type { QueuedTransmission } from "../records.js";
import type { SendChat } from "./queue-options.js";

/** Called with each event of a streamed delivery and the transmission it belongs to. */
export type StreamListener = (event: ChatStreamEvent, transmission: QueuedTransmission) => void;

/**
 * A queue `send` that delivers through `client.chatStream`, so a caller can render the reply as it
 * streams while the queue keeps its semantics: the same packet (and requestId) on every try, the
 * final ChatResponse as the result, and an `error` event thrown as its SolClientError so the queue
 * retries or fails the transmission as it would for `client.chat`.
 */
export function streamingSend(client: Pick<SolClient, "chatStream">, onEvent: StreamListener): SendChat {
  return async (packet, { signal, transmission }) => {
    for await (const event of client.chatStream(packet, { signal })) {
      onEvent(event, transmission);
      if (event.type === "final") return event.response;
      if (event.type === "error") throw event.error;
    }
    // chatStream always ends with final or error; this is only reached if that promise breaks.
    throw new Error("chatStream ended without a final or error event");
  };
}
