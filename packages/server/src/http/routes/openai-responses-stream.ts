import type { SseEvent } from "../sse.js";
import { splitForStream } from "../sse.js";
import type { ResponseObject, ResponseOutputItem } from "./openai-responses-contracts.js";

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
export function toResponseEvents(response: ResponseObject): SseEvent[] {
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
    { type: response.status === "incomplete" ? "response.incomplete" : "response.completed", response },
  ];
  return drafts.map((draft, sequence) => ({
    event: draft.type,
    data: { ...draft, sequence_number: sequence },
  }));
}
