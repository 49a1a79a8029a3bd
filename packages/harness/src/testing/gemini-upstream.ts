import type { IncomingMessage, ServerResponse } from "node:http";
import { chunksOf, disconnect, MODEL_BEHAVIOURS, type ReplayStep, sendJson, writeFrames } from "./replay.js";
import type { RecordedRequest } from "./scripted-upstream.js";
import { startWireUpstream, type WireUpstream, type WireUpstreamOptions } from "./upstream-server.js";

const CALL = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * A Gemini API upstream on a real socket: `POST /v1beta/models/{model}:generateContent`, and
 * `:streamGenerateContent?alt=sse` answering one `data:` GenerateContentResponse per piece, the last
 * with `finishReason` and `usageMetadata`. Errors use Google's `{error:{code,message,status}}`.
 */
export function startGeminiUpstream(options: WireUpstreamOptions = {}): Promise<WireUpstream> {
  return startWireUpstream(
    { basePath: "/v1beta", isModelCall: (method, path) => method === "POST" && CALL.test(path), answer },
    () => ({ kind: "reply", text: MODEL_BEHAVIOURS.envelope }),
    options,
  );
}

async function answer(step: ReplayStep, request: RecordedRequest, req: IncomingMessage, res: ServerResponse) {
  const [, model = "gemini-scripted", method] = CALL.exec(request.path.split("?")[0] ?? "") ?? [];
  if (step.kind === "status") {
    const status =
      step.status === 429 ? "RESOURCE_EXHAUSTED" : step.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT";
    const headers: Record<string, string> =
      step.retryAfter === undefined ? {} : { "retry-after": String(step.retryAfter) };
    sendJson(
      res,
      step.status,
      step.body ?? { error: { code: step.status, message: `scripted status ${step.status}`, status } },
      headers,
    );
    return;
  }
  const text = step.kind === "refusal" ? "" : step.kind === "reply" ? step.text : step.chunks.join("");
  const finish =
    step.kind === "refusal"
      ? "SAFETY"
      : step.kind === "reply" && step.finish === "length"
        ? "MAX_TOKENS"
        : "STOP";
  const usageMetadata = {
    promptTokenCount: 10,
    candidatesTokenCount: Math.ceil(text.length / 4),
    totalTokenCount: 10 + Math.ceil(text.length / 4),
  };
  const candidate = (piece: string, finishReason?: string) => ({
    content: { role: "model", parts: piece === "" ? [] : [{ text: piece }] },
    index: 0,
    ...(finishReason === undefined ? {} : { finishReason }),
  });
  if (method === "generateContent") {
    sendJson(res, 200, { candidates: [candidate(text, finish)], usageMetadata, modelVersion: model });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const frame = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`;
  const chunks = step.kind === "reply" ? chunksOf(step) : step.kind === "stream_error" ? step.chunks : [];
  const frames = chunks.map((piece) => frame({ candidates: [candidate(piece)], modelVersion: model }));
  if (!(await writeFrames(res, frames, step.kind === "reply" ? step.chunkDelayMs : undefined))) return;
  if (step.kind === "stream_error") {
    res.end(frame({ error: { code: 500, message: step.message, status: "INTERNAL" } }));
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
  res.end(frame({ candidates: [candidate("", finish)], usageMetadata, modelVersion: model }));
}
