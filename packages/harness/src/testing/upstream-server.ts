import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readRecordedRequest } from "./record-request.js";
import { nextStep, type ReplayEntry, type ReplayStep, sendJson } from "./replay.js";
import type { RecordedRequest } from "./scripted-upstream.js";

/** A scripted upstream of one wire format, on a real socket. */
export interface WireUpstream {
  /** Base URL to give the provider (SOL_LLM_BASE_URL). */
  readonly url: string;
  /** Model requests received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Appends steps to the script. */
  enqueue(...steps: ReplayEntry[]): void;
  /** Steps not yet used. */
  pending(): number;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

export interface WireUpstreamOptions {
  readonly script?: readonly ReplayEntry[];
  /** Answer when the script is empty (default: a valid envelope). */
  readonly fallback?: (request: RecordedRequest) => ReplayStep;
}

/** What a wire format contributes: which requests are model calls, and how a step is answered. */
export interface WireFormat {
  /** Path prefix of the base URL (`/v1`, `/v1beta`). */
  readonly basePath: string;
  isModelCall(method: string, path: string): boolean;
  answer(
    step: ReplayStep,
    request: RecordedRequest,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void>;
}

/** Starts a scripted upstream for `wire` on 127.0.0.1 and a free port. */
export async function startWireUpstream(
  wire: WireFormat,
  defaultReply: (request: RecordedRequest) => ReplayStep,
  options: WireUpstreamOptions = {},
): Promise<WireUpstream> {
  const script: ReplayEntry[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const fallback = options.fallback ?? defaultReply;
  const server = createServer((req, res) => {
    void readRecordedRequest(req).then(({ request }) => {
      const path = request.path.split("?")[0] ?? "";
      if (!wire.isModelCall(request.method, path)) {
        sendJson(res, 404, { error: { message: `no route for ${request.method} ${path}` } });
        return;
      }
      requests.push(request);
      const step = nextStep(script, request, fallback);
      wire.answer(step, request, req, res).catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    enqueue: (...steps) => {
      script.push(...steps);
    },
    pending: () => script.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
