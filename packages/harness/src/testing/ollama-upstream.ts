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
 * An Ollama-like OpenAI-compatible upstream (`POST /v1/chat/completions`) with the quirks of local
 * servers: it rejects `response_format` with a 400, reports no usage on streams, and says errors as
 * `{"error":"..."}` (a string, not OpenAI's object), also inside a stream.
 */
export function startOllamaUpstream(options: WireUpstreamOptions = {}): Promise<WireUpstream> {
  return startWireUpstream(
    {
      basePath: "/v1",
      isModelCall: (method, path) => method === "POST" && path === "/v1/chat/completions",
      answer,
    },
    () => ({ kind: "reply", text: MODEL_BEHAVIOURS.envelope }),
    options,
  );
}

async function answer(step: ReplayStep, request: RecordedRequest, req: IncomingMessage, res: ServerResponse) {
  const body = asRecord(request.body);
  const model = typeof body?.model === "string" ? body.model : "llama-scripted";
  if (body?.response_format !== undefined) {
    sendJson(res, 400, { error: "response_format is not supported by this server" });
    return;
  }
  if (step.kind === "status") {
    const headers: Record<string, string> =
      step.retryAfter === undefined ? {} : { "retry-after": String(step.retryAfter) };
    sendJson(res, step.status, step.body ?? { error: `scripted status ${step.status}` }, headers);
    return;
  }
  const text =
    step.kind === "refusal"
      ? (step.text ?? "I can't help with that.")
      : step.kind === "reply"
        ? step.text
        : step.chunks.join("");
  const finish = step.kind === "reply" && step.finish === "length" ? "length" : "stop";
  if (body?.stream !== true) {
    sendJson(res, 200, {
      id: "chatcmpl-ollama",
      object: "chat.completion",
      created: 0,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finish }],
      usage: {
        prompt_tokens: 10,
        completion_tokens: Math.ceil(text.length / 4),
        total_tokens: 10 + Math.ceil(text.length / 4),
      },
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const frame = (delta: Record<string, unknown>, finishReason: string | null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-ollama", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const chunks = step.kind === "reply" ? chunksOf(step) : step.kind === "stream_error" ? step.chunks : [text];
  const frames = chunks.map((piece, i) =>
    frame(i === 0 ? { role: "assistant", content: piece } : { content: piece }, null),
  );
  if (!(await writeFrames(res, frames, step.kind === "reply" ? step.chunkDelayMs : undefined))) return;
  if (step.kind === "stream_error") {
    res.end(`data: ${JSON.stringify({ error: step.message })}\n\n`);
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
  // No usage chunk: like Ollama, whatever stream_options asked.
  res.end(`${frame({}, finish)}data: [DONE]\n\n`);
}
