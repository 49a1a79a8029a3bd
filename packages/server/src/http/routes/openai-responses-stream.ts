import type { TurnOutcome, TurnStreamHead } from "../../orchestrator/index.js";
import type { SseEvent } from "../sse.js";
import { splitForStream } from "../sse.js";
import { actionsOf, type LiveFacadeStream, type LiveFormat } from "./openai-live.js";
import type { ResponseObject, ResponseOutputItem } from "./openai-responses-contracts.js";
import { responseId } from "./openai-responses-mapping.js";

/** One Responses stream event before its `sequence_number` is set. */
type Draft = { readonly type: string } & Record<string, unknown>;

/** A message item's events: added, its part added, text deltas, text done, part done, item done. */
function messageEvents(item: Extract<ResponseOutputItem, { type: "message" }>, outputIndex: number): Draft[] {
  const at = { item_id: item.id, output_index: outputIndex };
  const events: Draft[] = [
    {
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { ...item, status: "in_progress", content: [] },
    },
  ];
  item.content.forEach((part, contentIndex) => {
    const where = { ...at, content_index: contentIndex };
    if (part.type === "refusal") {
      events.push(
        { type: "response.content_part.added", ...where, part: { type: "refusal", refusal: "" } },
        { type: "response.refusal.delta", ...where, delta: part.refusal },
        { type: "response.refusal.done", ...where, refusal: part.refusal },
        { type: "response.content_part.done", ...where, part },
      );
      return;
    }
    events.push({
      type: "response.content_part.added",
      ...where,
      part: { type: "output_text", text: "", annotations: [], logprobs: [] },
    });
    for (const delta of splitForStream(part.text)) {
      events.push({ type: "response.output_text.delta", ...where, delta, logprobs: [] });
    }
    events.push(
      { type: "response.output_text.done", ...where, text: part.text, logprobs: [] },
      { type: "response.content_part.done", ...where, part },
    );
  });
  events.push({ type: "response.output_item.done", output_index: outputIndex, item });
  return events;
}

/** A function call item's events: added (no arguments yet), the arguments, done. */
function functionCallEvents(
  item: Extract<ResponseOutputItem, { type: "function_call" }>,
  outputIndex: number,
): Draft[] {
  const at = { item_id: item.id, output_index: outputIndex };
  return [
    {
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { ...item, arguments: "", status: "in_progress" },
    },
    { type: "response.function_call_arguments.delta", ...at, delta: item.arguments },
    { type: "response.function_call_arguments.done", ...at, name: item.name, arguments: item.arguments },
    { type: "response.output_item.done", output_index: outputIndex, item },
  ];
}

/**
 * The stream of a finished response, in the Responses API's event order: created, in_progress, each
 * output item with its parts and deltas, then completed (or incomplete). The deltas joined equal the
 * non-streamed `output_text`. Each event is named by its `type` and numbered by `sequence_number`.
 */
export function toResponseEvents(response: ResponseObject, outcome: TurnOutcome): SseEvent[] {
  const pending: ResponseObject = {
    ...response,
    status: "in_progress",
    output: [],
    usage: null,
    incomplete_details: null,
  };
  const drafts: Draft[] = [
    { type: "response.created", response: pending },
    { type: "response.in_progress", response: pending },
    ...response.output.flatMap((item, index) =>
      item.type === "message" ? messageEvents(item, index) : functionCallEvents(item, index),
    ),
    {
      type: response.status === "incomplete" ? "response.incomplete" : "response.completed",
      response,
      ...trailer(outcome),
    },
  ];
  return drafts.map((draft, sequence) => ({
    event: draft.type,
    data: { ...draft, sequence_number: sequence },
  }));
}

/**
 * The turn's trailer on the last event: `x_sol_actions` (the `x-sol-actions` header's list, known only
 * once the reply is complete) and `x_sol_breakpoint`.
 */
function trailer(outcome: TurnOutcome) {
  const actions = actionsOf(outcome);
  return {
    x_sol_breakpoint: outcome.response.breakpoint.decision,
    ...(actions.length > 0 ? { x_sol_actions: actions } : {}),
  };
}

/** The message item a live stream opens before the turn has named its message. */
function liveItemId(head: TurnStreamHead): string {
  return `msg_${head.transmissionId}`;
}

/** A live Responses stream's format and its end, sharing the events' numbering. */
export interface LiveResponses {
  readonly format: LiveFormat;
  /** Ends a started stream: the held tail, the text and item done, other items, then completed. */
  finish(live: LiveFacadeStream, response: ResponseObject, outcome: TurnOutcome): void;
}

/**
 * The Responses wire format of a live stream: created, in_progress, the message item and its text part
 * added, then one `response.output_text.delta` per release. `pending` is the response object as the
 * request echoes it (its id and time are set from the turn's head). The message item is named after
 * the turn's transmission, and the final response names it the same way.
 */
export function liveResponses(pending: ResponseObject): LiveResponses {
  let sequence = 0;
  const send = (sse: LiveFacadeStream["sse"], draft: Draft) =>
    sse.send(draft.type, { ...draft, sequence_number: sequence++ });
  const at = (itemId: string) => ({ item_id: itemId, output_index: 0, content_index: 0 });
  const format: LiveFormat = {
    open(sse, head) {
      const response = {
        ...pending,
        id: responseId(head.transmissionId),
        created_at: Math.floor(Date.parse(head.createdAt) / 1000),
      };
      const item = {
        type: "message",
        id: liveItemId(head),
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      send(sse, { type: "response.created", response });
      send(sse, { type: "response.in_progress", response });
      send(sse, { type: "response.output_item.added", output_index: 0, item });
      send(sse, {
        type: "response.content_part.added",
        ...at(item.id),
        part: { type: "output_text", text: "", annotations: [], logprobs: [] },
      });
    },
    delta(sse, head, text) {
      send(sse, { type: "response.output_text.delta", ...at(liveItemId(head)), delta: text, logprobs: [] });
    },
    fail(sse, error) {
      send(sse, { type: "error", code: error.code, message: error.message, param: error.param });
    },
  };
  const finish = (live: LiveFacadeStream, response: ResponseObject, outcome: TurnOutcome) => {
    const head = live.head;
    const first = response.output[0];
    const part = first?.type === "message" ? first.content[0] : undefined;
    const text = part?.type === "output_text" ? part.text : live.shown;
    const itemId = head === null ? (first?.id ?? "msg") : liveItemId(head);
    const donePart = { type: "output_text" as const, text, annotations: [], logprobs: [] };
    const item: ResponseOutputItem =
      first?.type === "message"
        ? { ...first, id: itemId }
        : { type: "message", id: itemId, status: "completed", role: "assistant", content: [donePart] };
    // The turn settles its stream on the reply (generation.ts): the text continues what was sent.
    const rest = text.startsWith(live.shown) ? text.slice(live.shown.length) : "";
    for (const delta of splitForStream(rest)) {
      send(live.sse, { type: "response.output_text.delta", ...at(itemId), delta, logprobs: [] });
    }
    send(live.sse, { type: "response.output_text.done", ...at(itemId), text, logprobs: [] });
    send(live.sse, { type: "response.content_part.done", ...at(itemId), part: donePart });
    send(live.sse, { type: "response.output_item.done", output_index: 0, item });
    const others = first?.type === "message" ? response.output.slice(1) : response.output;
    others.forEach((other, index) => {
      if (other.type !== "function_call") return;
      for (const draft of functionCallEvents(other, index + 1)) send(live.sse, draft);
    });
    const final = { ...response, output: [item, ...others] };
    send(live.sse, {
      type: response.status === "incomplete" ? "response.incomplete" : "response.completed",
      response: final,
      ...trailer(outcome),
    });
    live.sse.end();
  };
  return { format, finish };
}
