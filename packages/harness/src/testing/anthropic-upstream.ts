import type { IncomingMessage, ServerResponse } from "node:http";
import {
  asRecord,
  chunksOf,
  disconnect,
  MODEL_BEHAVIOURS,
  type ReplayStep,
  sendJson,
  writeFrames,
} from "./replay.js";
import type { RecordedRequest } from "./scripted-upstream.js";
import { startWireUpstream, type WireUpstream, type WireUpstreamOptions } from "./upstream-server.js";

/**
 * An Anthropic Messages API upstream (`POST /v1/messages`) on a real socket. A request that forces a
 * tool gets a reply that is a JSON object as that tool's input (`tool_use`, streamed as
 * `input_json_delta`); any other reply is a text block. Streams use the API's event types:
 * message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
 * message_stop, and `error`.
 */
export function startAnthropicUpstream(options: WireUpstreamOptions = {}): Promise<WireUpstream> {
  return startWireUpstream(
    {
      basePath: "/v1",
      isModelCall: (method, path) => method === "POST" && path === "/v1/messages",
      answer,
    },
    () => ({ kind: "reply", text: MODEL_BEHAVIOURS.envelope }),
    options,
  );
}

async function answer(step: ReplayStep, request: RecordedRequest, req: IncomingMessage, res: ServerResponse) {
  const body = asRecord(request.body);
  const model = typeof body?.model === "string" ? body.model : "claude-scripted";
  if (step.kind === "status") {
    const type =
      step.status === 429 ? "rate_limit_error" : step.status >= 500 ? "api_error" : "invalid_request_error";
    const headers: Record<string, string> =
      step.retryAfter === undefined ? {} : { "retry-after": String(step.retryAfter) };
    sendJson(
      res,
      step.status,
      step.body ?? { type: "error", error: { type, message: `scripted status ${step.status}` } },
      headers,
    );
    return;
  }
  const tool = forcedTool(body);
  const text =
    step.kind === "refusal" ? (step.text ?? "") : step.kind === "reply" ? step.text : step.chunks.join("");
  const asTool = tool !== undefined && step.kind !== "refusal" && isJsonObject(text);
  const stop =
    step.kind === "refusal"
      ? "refusal"
      : step.kind === "reply" && step.finish === "length"
        ? "max_tokens"
        : asTool
          ? "tool_use"
          : "end_turn";
  if (body?.stream !== true) {
    const content = asTool
      ? [{ type: "tool_use", id: "toolu_scripted", name: tool, input: JSON.parse(text) }]
      : text === ""
        ? []
        : [{ type: "text", text }];
    sendJson(res, 200, {
      id: "msg_scripted",
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: Math.ceil(text.length / 4) },
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const chunks =
    step.kind === "reply"
      ? chunksOf(step)
      : step.kind === "stream_error"
        ? step.chunks
        : text === ""
          ? []
          : [text];
  const block = asTool
    ? { type: "tool_use", id: "toolu_scripted", name: tool, input: {} }
    : { type: "text", text: "" };
  const delta = (piece: string) =>
    asTool ? { type: "input_json_delta", partial_json: piece } : { type: "text_delta", text: piece };
  const head = [
    event("message_start", {
      type: "message_start",
      message: {
        id: "msg_scripted",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    event("content_block_start", { type: "content_block_start", index: 0, content_block: block }),
    ...chunks.map((piece) =>
      event("content_block_delta", { type: "content_block_delta", index: 0, delta: delta(piece) }),
    ),
  ];
  const delayMs = step.kind === "reply" ? step.chunkDelayMs : undefined;
  if (!(await writeFrames(res, head, delayMs))) return;
  if (step.kind === "stream_error") {
    res.end(event("error", { type: "error", error: { type: "overloaded_error", message: step.message } }));
    return;
  }
  if (step.kind === "reply" && step.end === "disconnect") {
    disconnect(res, req);
    return;
  }
  if (step.kind === "reply" && step.end === "close") {
    res.end();
    return;
  }
  res.end(
    [
      event("content_block_stop", { type: "content_block_stop", index: 0 }),
      event("message_delta", {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: Math.ceil(text.length / 4) },
      }),
      event("message_stop", { type: "message_stop" }),
    ].join(""),
  );
}

/** The tool the request makes the model call (`tool_choice` any or tool), if any. */
function forcedTool(body: Record<string, unknown> | undefined): string | undefined {
  const choice = asRecord(body?.tool_choice);
  const tools = Array.isArray(body?.tools) ? body.tools.map(asRecord) : [];
  if (choice?.type === "tool" && typeof choice.name === "string") return choice.name;
  if (choice?.type === "any" && tools.length === 1 && typeof tools[0]?.name === "string")
    return tools[0].name;
  return undefined;
}

function isJsonObject(text: string): boolean {
  try {
    return asRecord(JSON.parse(text)) !== undefined;
  } catch {
    return false;
  }
}
